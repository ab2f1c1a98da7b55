// The console shell: sign-in when the server asks for a token, the header and navigation, and
// hash routing (#/overview, #/providers, #/providers/<uuid>, #/explain, #/history, #/projects,
// #/projects/<id>, #/simulate, #/drain; a page's filters and sort follow `?` so views can be linked to).
import { type FormEvent, type ReactNode, useEffect, useMemo, useState } from 'react';
import { Provider as UrqlProvider, useQuery } from 'urql';
import { createClient, storedToken, storeToken } from './client';
import { type Route, useRoute } from './components/hash-route';
import { graphql } from './graphql';
import { Drain } from './pages/drain';
import { Explain } from './pages/explain';
import { History } from './pages/history';
import { Overview } from './pages/overview';
import { Project, Projects } from './pages/projects';
import { Provider } from './pages/provider';
import { Providers } from './pages/providers';
import { Simulate } from './pages/simulate';
import { ErrorBox } from './ui';

const PROBE = graphql(`
  query Probe { version { berth } }
`);

const LINKS = [
  ['overview', 'Overview'],
  ['providers', 'Providers'],
  ['projects', 'Projects'],
  ['history', 'History'],
  ['explain', 'Why no valid host?'],
  ['simulate', 'Simulate'],
] as const;

function Page({ route }: { route: Route }) {
  switch (route.section) {
    case 'providers':
      return route.id ? <Provider uuid={route.id} /> : <Providers params={route.params} />;
    case 'explain':
      return <Explain />;
    case 'history':
      return <History />;
    case 'simulate':
      return <Simulate />;
    case 'drain':
      return <Drain params={route.params} />;
    case 'projects':
      return route.id ? (
        <Project projectId={route.id} highlight={route.params.get('consumer')} />
      ) : (
        <Projects />
      );
    default:
      return <Overview />;
  }
}

/** The bar on top of every screen, sign-in included. */
function Header(props: { section?: string; right?: ReactNode }) {
  return (
    <header>
      <h1>
        <a href="#/overview">berth</a>
      </h1>
      {props.section !== undefined && (
        <nav aria-label="Main">
          {LINKS.map(([to, label]) => (
            <a key={to} href={`#/${to}`} aria-current={props.section === to ? 'page' : undefined}>
              {label}
            </a>
          ))}
        </nav>
      )}
      <span className="who">{props.right}</span>
    </header>
  );
}

type SignInProblem = 'refused' | 'empty' | 'unreachable' | null;

function SignIn({ onToken, problem }: { onToken: (t: string) => void; problem: SignInProblem }) {
  const [token, setToken] = useState('');
  const [empty, setEmpty] = useState(false);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (!token.trim()) {
      setEmpty(true);
      return;
    }
    setEmpty(false);
    onToken(token.trim());
  };
  const shown: SignInProblem = empty ? 'empty' : problem;
  return (
    <>
      <Header />
      <main className="signin-page">
        <form className="signin card" onSubmit={submit} noValidate>
          <h2>Sign in to berth</h2>
          <p>
            This berth requires an API token. Create one with{' '}
            <code>berth token create --role reader</code>. It is kept in this tab only and sent as{' '}
            <code>Authorization: Bearer</code>.
          </p>
          {shown && (
            <p role="alert" className={`error signin-error signin-${shown}`}>
              {shown === 'refused' &&
                'That token was refused (401): it is unknown, expired or revoked.'}
              {shown === 'empty' && 'Enter a token first.'}
              {shown === 'unreachable' && 'berth did not answer: check that the server is running.'}
            </p>
          )}
          <label>
            API token
            <input
              type="password"
              autoComplete="off"
              spellCheck={false}
              placeholder="berth_…"
              aria-invalid={shown === 'refused' || shown === 'empty'}
              value={token}
              onChange={(e) => setToken(e.target.value)}
            />
          </label>
          <button type="submit" className="primary">
            Sign in
          </button>
        </form>
      </main>
    </>
  );
}

function Shell({ signOut, signedIn }: { signOut: () => void; signedIn: boolean }) {
  const route = useRoute();
  // App's sign-in probe has just fetched this; read it from the cache instead of asking again.
  const [probe] = useQuery({ query: PROBE, requestPolicy: 'cache-first' });
  return (
    <>
      <Header
        section={route.section}
        right={
          <>
            {probe.data && <span className="version">berth {probe.data.version.berth}</span>}
            {signedIn && (
              <button type="button" onClick={signOut}>
                Sign out
              </button>
            )}
          </>
        }
      />
      <main>{probe.error ? <ErrorBox error={probe.error} /> : <Page route={route} />}</main>
    </>
  );
}

type State = 'probing' | 'open' | 'needs-token' | 'refused' | 'unreachable';

export function App() {
  const [token, setToken] = useState(storedToken());
  const [state, setState] = useState<State>('probing');
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
        if (unauthenticated) {
          setState(token ? 'refused' : 'needs-token');
        } else {
          setState(r.error?.networkError && !r.data ? 'unreachable' : 'open');
        }
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
    return <p className="connecting">Connecting…</p>;
  }
  if (state !== 'open') {
    return (
      <SignIn
        onToken={use}
        problem={state === 'refused' ? 'refused' : state === 'unreachable' ? 'unreachable' : null}
      />
    );
  }
  return (
    <UrqlProvider value={client}>
      <Shell signedIn={token !== null} signOut={() => use(null)} />
    </UrqlProvider>
  );
}
