/**
 * Who sends a request: the holder of an API key (`Principal`, from the key file's sections) and, for an asset, the
 * role that holder plays (workflow.ts `Role`: the owner is the creating broker presenting the owner token).
 */
export const ROLES = ['brokers', 'concierge', 'admins'] as const;
export type ApiRole = (typeof ROLES)[number];

export interface Principal {
  name: string;
  role: ApiRole;
}
