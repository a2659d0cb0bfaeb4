import packageJson from '../../package.json' with { type: 'json' };

/** The version every document and the instructions report: the package's own. */
export const PACKAGE_VERSION: string = packageJson.version;
