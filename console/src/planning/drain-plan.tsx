// A drain plan for one or more hosts (drainPlan): where each consumer on them would go, under a
// chosen profile, with no destination booked twice — or why it cannot move, with the candidate
// stage. A token that may (service, admin) can reserve the plan (reserveDrainPlan): each
// destination claimed as a move, after a confirmation; a reader sees no Reserve button.
import { useEffect, useRef, useState } from 'react';
import { useMutation, useQuery } from 'urql';
import { CandidateFunnel, ClosestMisses } from '../explain/candidate-stage';
import { amount, int } from '../format';
import { ErrorBox, HostLink } from '../ui';
import { usePermissions } from './permissions';
import { DRAIN_PLAN, type DrainPlanAnswer, PLANNING_CHOICES, RESERVE_DRAIN_PLAN } from './queries';
import './planning.css';

type Move = DrainPlanAnswer['moves'][number];

const resourcesText = (m: Move) =>
  m.allocations
    .flatMap((a) =>
      a.resources.map((r) => `${r.resourceClass} ${amount(r.resourceClass, r.amount)}`),
    )
    .join(', ');

function MovesTable({ plan }: { plan: DrainPlanAnswer }) {
  if (plan.moves.length === 0) {
    return <p className="none">No consumer holds allocations here: nothing to move.</p>;
  }
  return (
    <div className="scroll-x">
      <table className="dense drain-moves" data-testid="drain-moves">
        <thead>
          <tr>
            <th scope="col">Consumer</th>
            <th scope="col">Project</th>
            <th scope="col">From</th>
            <th scope="col">To</th>
            <th scope="col">At the destination</th>
          </tr>
        </thead>
        <tbody>
          {plan.moves.map((m) => (
            <tr
              key={m.consumerUuid}
              data-consumer={m.consumerUuid}
              data-to={m.to?.uuid ?? ''}
              className={m.to ? undefined : 'drain-stuck'}
            >
              <td className="mono">
                <a
                  href={`#/projects/${encodeURIComponent(m.projectId)}?consumer=${m.consumerUuid}`}
                >
                  {m.consumerUuid}
                </a>
              </td>
              <td>{m.projectId}</td>
              <td>
                <HostLink uuid={m.from.uuid} name={m.from.name} />
              </td>
              <td>
                {m.to ? (
                  <>
                    <span aria-hidden="true">→ </span>
                    <HostLink uuid={m.to.uuid} name={m.to.name} />
                  </>
                ) : (
                  <span className="drain-cannot">
                    cannot move{m.reason ? `: ${m.reason}` : ''}
                    {m.candidateStage && (
                      <details>
                        <summary>Candidate stage</summary>
                        <div className="explain">
                          <CandidateFunnel stage={m.candidateStage} />
                          <ClosestMisses stage={m.candidateStage} />
                        </div>
                      </details>
                    )}
                  </span>
                )}
              </td>
              <td>{m.to ? resourcesText(m) : ''}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

function PlanView({ plan }: { plan: DrainPlanAnswer }) {
  return (
    <>
      <p className="drain-counts" data-testid="drain-counts">
        <span data-field="movable">
          <b>{int(plan.movable)}</b> can move
        </span>{' '}
        ·{' '}
        <span
          data-field="unmovable"
          className={plan.unmovable > 0 ? 'drain-stuck-count' : undefined}
        >
          <b>{int(plan.unmovable)}</b> cannot
        </span>{' '}
        · planned in {int(plan.durationMs)} ms
      </p>
      <MovesTable plan={plan} />
    </>
  );
}

/** The plan for `hosts` (root provider uuids). */
export function DrainPanel({ hosts }: { hosts: readonly string[] }) {
  const { reserve: mayReserve, known } = usePermissions();
  const [profile, setProfile] = useState('default');
  const [choices] = useQuery({ query: PLANNING_CHOICES });
  const input = { hosts: [...hosts], profile };
  const [r] = useQuery({
    query: DRAIN_PLAN,
    variables: { input },
    requestPolicy: 'network-only',
  });
  const [reserved, reserve] = useMutation(RESERVE_DRAIN_PLAN);
  const [confirming, setConfirming] = useState(false);
  // Keyboard focus follows the buttons as they replace each other.
  const confirmRef = useRef<HTMLButtonElement>(null);
  const askRef = useRef<HTMLButtonElement>(null);
  const asked = useRef(false);
  useEffect(() => {
    if (confirming) {
      asked.current = true;
      confirmRef.current?.focus();
    } else if (asked.current) {
      askRef.current?.focus();
    }
  }, [confirming]);
  const profiles = choices.data?.schedulerProfiles.map((p) => p.name) ?? [profile];
  const done = reserved.data?.reserveDrainPlan;
  const plan = done ?? r.data?.drainPlan;
  return (
    <section
      className="panel drain"
      aria-labelledby="drain-h"
      data-testid="drain-plan"
      data-may-reserve={known ? String(mayReserve) : undefined}
    >
      <div className="table-head">
        <h3 id="drain-h">
          Drain plan{' '}
          {plan && plan.hosts.length > 1 && <small>({int(plan.hosts.length)} hosts)</small>}
        </h3>
        <label className="inline">
          Profile{' '}
          <select
            name="drain-profile"
            value={profile}
            disabled={Boolean(done)}
            onChange={(e) => setProfile(e.target.value)}
          >
            {profiles.map((p) => (
              <option key={p}>{p}</option>
            ))}
          </select>
        </label>
        {r.fetching && <span className="loading">Planning…</span>}
      </div>
      {r.error && <ErrorBox error={r.error} />}
      {reserved.error && <ErrorBox error={reserved.error} />}
      {done && (
        <p className="drain-reserved" role="status" data-testid="drain-reserved">
          Reserved: {int(done.movable)} destination(s) claimed as moves. Nova performs the
          migrations; each move is confirmed or reverted as usual.
        </p>
      )}
      {plan && <PlanView plan={plan} />}
      {plan && !done && mayReserve && plan.movable > 0 && (
        <div className="drain-actions">
          {!confirming ? (
            <button type="button" ref={askRef} onClick={() => setConfirming(true)}>
              Reserve…
            </button>
          ) : (
            <fieldset className="drain-confirm">
              <legend>Reserve the plan</legend>
              <p>
                Claim the {int(plan.movable)} destination(s) as moves now? The consumers keep their
                current allocations until each move is confirmed or reverted.
              </p>
              <button
                type="button"
                className="primary"
                ref={confirmRef}
                disabled={reserved.fetching}
                onClick={() => {
                  void reserve({ input }).then(() => setConfirming(false));
                }}
              >
                Reserve {int(plan.movable)} move(s)
              </button>{' '}
              <button type="button" onClick={() => setConfirming(false)}>
                Cancel
              </button>
            </fieldset>
          )}
        </div>
      )}
    </section>
  );
}
