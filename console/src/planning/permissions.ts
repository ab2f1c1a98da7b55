// What the signed-in token may do beyond reading, from berth's `viewer` query (the console never
// reads a role from the token): whether it may reserve a drain plan (service, admin) and whether
// it may set a simulation's admin-only arguments (admin). berth checks every operation anyway.
import { useEffect, useState } from 'react';
import { useClient } from 'urql';
import { VIEWER } from './queries';

/** Roles, weakest first (src/auth/roles.ts ROLES). */
const ROLES = ['member', 'reader', 'scheduler', 'service', 'admin'];
const atLeast = (role: string, need: string) => ROLES.indexOf(role) >= ROLES.indexOf(need);

/** What the token may do; both false until berth has answered (`known`). */
export interface Permissions {
  readonly reserve: boolean;
  readonly admin: boolean;
  readonly known: boolean;
}

/** Asks berth once per client (signing in again makes a new client). */
export function usePermissions(): Permissions {
  const client = useClient();
  const [p, setP] = useState<Permissions>({ reserve: false, admin: false, known: false });
  useEffect(() => {
    let live = true;
    client
      .query(VIEWER, {}, { requestPolicy: 'network-only' })
      .toPromise()
      .then((r) => {
        const role = r.data?.viewer.role;
        if (live && role !== undefined) {
          setP({ reserve: atLeast(role, 'service'), admin: role === 'admin', known: true });
        }
      });
    return () => {
      live = false;
    };
  }, [client]);
  return p;
}
