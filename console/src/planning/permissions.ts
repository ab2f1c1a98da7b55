// What the signed-in token may do beyond reading, asked of berth itself (the console never reads
// a role from the token): whether it may reserve a drain plan (service, admin) and whether it may
// set a simulation's admin-only arguments (admin). See the probes in ./queries.ts.
import { useEffect, useState } from 'react';
import { type CombinedError, useClient } from 'urql';
import { CAN_READ_AUDIT, CAN_RESERVE } from './queries';

const refused = (e: CombinedError | undefined) =>
  e?.graphQLErrors.some((g) => g.extensions?.code === 'berth.forbidden') ?? false;

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
    // Sent without their variables on purpose: nothing runs (see the probes' comment).
    const none = {} as never;
    Promise.all([
      client.mutation(CAN_RESERVE, none).toPromise(),
      client.query(CAN_READ_AUDIT, none, { requestPolicy: 'network-only' }).toPromise(),
    ]).then(([reserve, audit]) => {
      if (live) {
        setP({
          reserve: !refused(reserve.error) && !reserve.error?.networkError,
          admin: !refused(audit.error) && !audit.error?.networkError,
          known: true,
        });
      }
    });
    return () => {
      live = false;
    };
  }, [client]);
  return p;
}
