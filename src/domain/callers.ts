/** The roles of the key file's sections; for an asset, workflow.ts's `Role` adds the owner. */
export const ROLES = ['brokers', 'concierge', 'admins'] as const;
export type ApiRole = (typeof ROLES)[number];

export interface Principal {
  name: string;
  role: ApiRole;
}
