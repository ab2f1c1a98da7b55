// A drain plan of its own (#/drain?host=<uuid>&host=<uuid>): the hosts to drain, taken from the
// URL or typed as root provider uuids, and where their consumers would go (planning/drain-plan).
import { useState } from 'react';
import { DrainPanel } from '../planning/drain-plan';

export function Drain({ params }: { params: URLSearchParams }) {
  const hosts = params.getAll('host').filter(Boolean);
  const [text, setText] = useState(hosts.join(', '));
  const apply = () => {
    const next = new URLSearchParams();
    for (const h of text.split(/[\s,]+/).filter(Boolean)) {
      next.append('host', h);
    }
    window.location.hash = `#/drain${next.size > 0 ? `?${next}` : ''}`;
  };
  return (
    <div>
      <div className="page-title">
        <h2>Drain plan</h2>
        <p className="subtitle">
          Where every consumer on these hosts would go, respecting capacity, filters and
          server-group policies, each destination booked once. Nothing moves: Nova migrates.
        </p>
      </div>
      <form
        className="filters"
        aria-label="Hosts to drain"
        onSubmit={(e) => {
          e.preventDefault();
          apply();
        }}
      >
        <label>
          Hosts (root provider uuids, comma-separated)
          <input name="hosts" size={80} value={text} onChange={(e) => setText(e.target.value)} />
        </label>
        <button type="submit">Plan</button>
      </form>
      {hosts.length > 0 ? (
        <DrainPanel key={hosts.join(',')} hosts={hosts} />
      ) : (
        <p className="none">Name a host to drain, or use Plan drain on a host's page.</p>
      )}
    </div>
  );
}
