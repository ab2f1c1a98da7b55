// The console shell: sign-in when the server asks for a token, navigation, and hash routing
// (#/overview, #/providers, #/providers/<uuid>, #/explain, #/projects, #/projects/<id>).
import { type FormEvent, useEffect, useMemo, useState } from 'react';
import { Provider as UrqlProvider, useQuery } from 'urql';
import { createClient, storedToken, storeToken } from './client';
import { graphql } from './graphql';
import { Explain } from './pages/explain';
import { Overview } from './pages/overview';
import { Project, Projects } from './pages/projects';
import { Provider } from './pages/provider';
import { Providers } from './pages/providers';
import { ErrorBox } from './ui';

const PROBE = graphql(`
  query Probe { version { berth } }
`);

function useHash(): string {
  const [hash, setHash] = useState(window.location.hash);
  useEffect(() => {
    const on = () => setHash(window.location.hash);
    window.addEventListener('hashchange', on);
    return () => window.removeEventListener('hashchange', on);
  }, []);
  return hash.replace(/^#\/?/, '') || 'overview';
}

function Page({ route }: { route: string }) {
  const [section, id] = route.split('/');
  switch (section) {
    case 'providers':
      return id ? <Provider uuid={id} /> : <Providers />;
    case 'explain':
      return <Explain />;
    case 'projects':
      return id ? <Project projectId={decodeURIComponent(id)} /> : <Projects />;
    default:
      return <Overview />;
  }
}

function SignIn({ onToken, refused }: { onToken: (t: string) => void; refused: boolean }) {
  const [token, setToken] = useState('');
  const submit = (e: FormEvent) => {
    e.preventDefault();
    onToken(token.trim());
  };
  return (
    <form className="signin" onSubmit={submit}>
      <h2>Sign in</h2>
      <p>
        This berth requires an API token (<code>berth token create --role reader</code>). It is kept
        in this tab only and sent as <code>Authorization: Bearer</code>.
      </p>
      {refused && (
        <p role="alert" className="error">
          That token was refused (401): it is unknown, expired or revoked.
        </p>
      )}
      <label>
        Token{' '}
        <input
          type="password"
          autoComplete="off"
          value={token}
          onChange={(e) => setToken(e.target.value)}
        />
      </label>
      <button type="submit">Sign in</button>
    </form>
  );
}

function Shell({ signOut, signedIn }: { signOut: () => void; signedIn: boolean }) {
  const route = useHash();
  // App's sign-in probe has just fetched this; read it from the cache instead of asking again.
  const [probe] = useQuery({ query: PROBE, requestPolicy: 'cache-first' });
  const links = [
    ['overview', 'Overview'],
    ['providers', 'Providers'],
    ['explain', 'Why no valid host?'],
    ['projects', 'Projects'],
  ] as const;
  return (
    <>
      <header>
        <h1>berth</h1>
        <nav aria-label="Main">
          {links.map(([to, label]) => (
            <a key={to} href={`#/${to}`} aria-current={route.startsWith(to) ? 'page' : undefined}>
              {label}
            </a>
          ))}
        </nav>
        <span className="who">
          {probe.data && `berth ${probe.data.version.berth}`}
          {signedIn && (
            <button type="button" onClick={signOut}>
              Sign out
            </button>
          )}
        </span>
      </header>
      <main>{probe.error ? <ErrorBox error={probe.error} /> : <Page route={route} />}</main>
    </>
  );
}

export function App() {
  const [token, setToken] = useState(storedToken());
  const [state, setState] = useState<'probing' | 'open' | 'needs-token' | 'refused'>('probing');
  const client = useMemo(() => createClient(token), [token]);
  useEffect(() => {
    let live = true;
    client
      .query(PROBE, {}, { requestPolicy: 'network-only' })
      .toPromise()
      .then((r) => {
        if (!live) {
          return;
        }
        const unauthenticated = r.error?.graphQLErrors.some(
          (e) => e.extensions?.code === 'berth.unauthenticated',
        );
        setState(unauthenticated ? (token ? 'refused' : 'needs-token') : 'open');
      });
    return () => {
      live = false;
    };
  }, [client, token]); // token: whether a refusal means 'refused' or 'needs-token'
  const use = (t: string | null) => {
    storeToken(t);
    setToken(t);
    setState('probing');
  };
  if (state === 'probing') {
    return <p>Connecting…</p>;
  }
  if (state !== 'open') {
    return <SignIn onToken={use} refused={state === 'refused'} />;
  }
  return (
    <UrqlProvider value={client}>
      <Shell signedIn={token !== null} signOut={() => use(null)} />
    </UrqlProvider>
  );
}
