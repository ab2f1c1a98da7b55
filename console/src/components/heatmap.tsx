// The aggregates × resource classes heatmap of the overview, coloured on a continuous viridis
// scale (interpolated, not bucketed) with its legend; every cell also states its percentage.
import { heat, percent, viridisGradient } from '../format';
import { AggregateLink } from '../ui';

/** One aggregate's row: its uuid, member count and per-class utilisation. */
export interface HeatRow {
  readonly aggregateUuid: string | null;
  readonly providerCount: number;
  readonly lines: readonly { readonly resourceClass: string; readonly utilisation: number }[];
}

/** The legend: the colour of every utilisation from 0 to 100 %. */
export function HeatLegend() {
  const ticks = [0, 0.25, 0.5, 0.75, 1];
  return (
    <figure className="legend" data-testid="heat-legend" aria-label="Colour scale">
      <div className="legend-bar" style={{ background: viridisGradient() }} aria-hidden="true" />
      <div className="legend-ticks">
        {ticks.map((t) => (
          <span key={t}>{percent(t).replace('.0 ', ' ')}</span>
        ))}
      </div>
      <figcaption>Utilisation (used / capacity): dark is empty, yellow is full.</figcaption>
    </figure>
  );
}

/** The heatmap table with its legend. */
export function Heatmap(props: {
  rows: readonly HeatRow[];
  classes: readonly string[];
  names: ReadonlyMap<string, string | null>;
}) {
  const rows = [...props.rows].sort((a, b) =>
    (props.names.get(a.aggregateUuid ?? '') ?? a.aggregateUuid ?? '').localeCompare(
      props.names.get(b.aggregateUuid ?? '') ?? b.aggregateUuid ?? '',
    ),
  );
  return (
    <>
      <div className="scroll-x">
        <table className="heatmap dense" data-testid="heatmap">
          <thead>
            <tr>
              <th scope="col">Aggregate</th>
              <th scope="col" className="num">
                Providers
              </th>
              {props.classes.map((c) => (
                <th scope="col" key={c} className="num">
                  {c}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {rows.map((g) => (
              <tr key={g.aggregateUuid}>
                <th scope="row">
                  <AggregateLink
                    uuid={g.aggregateUuid ?? ''}
                    name={props.names.get(g.aggregateUuid ?? '') ?? null}
                  />
                </th>
                <td className="num">{g.providerCount}</td>
                {props.classes.map((c) => {
                  const l = g.lines.find((x) => x.resourceClass === c);
                  return l ? (
                    <td key={c} className="heat" style={heat(l.utilisation)} data-class={c}>
                      {percent(l.utilisation)}
                    </td>
                  ) : (
                    <td key={c} className="heat none">
                      —
                    </td>
                  );
                })}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {rows.length === 0 ? <p>No aggregate has members.</p> : <HeatLegend />}
    </>
  );
}
