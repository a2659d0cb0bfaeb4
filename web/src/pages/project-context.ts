import type { Project } from '../api/types.ts';

/** What every project tab gets from the layout that loaded the project. */
export interface ProjectContext {
  project: Project;
  /** Takes the project a write returned (member changes bump its version). */
  setProject: (project: Project) => void;
  reloadProject: () => Promise<Project | undefined>;
}

export const projectPath = (project: Pick<Project, 'projectId'>, rest = '') => `/projects/${encodeURIComponent(project.projectId)}${rest}`;
