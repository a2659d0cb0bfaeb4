/** The secrets every instance of one deployment shares: the signing keys' encryption secret and the cookie keys. */
export interface InstanceSecrets {
  keyEncryptionSecret: string;
  cookieKeys: string[];
  /** Names of the secrets generated on this start (outside production only), for a warning. */
  generated: string[];
}
