// GraphiQL for Quire, served by GET /graphql (internal/graphiql).
//
// The page carries no token: the API token is typed into the field above the
// editor, kept in localStorage and sent as "Authorization: Bearer <token>" on
// every request the page makes to the endpoint. Subscriptions run over a
// WebSocket to the same endpoint (GraphiQL's fetcher with graphql-ws, the
// graphql-transport-ws protocol), with the token in connection_init's
// payload. GraphiQL 3 brings the docs explorer and the query history as
// built-in plugins.
import React, { useEffect, useMemo, useRef, useState } from 'react';
import { createRoot } from 'react-dom/client';
import { GraphiQL } from 'graphiql';
import { createGraphiQLFetcher } from '@graphiql/toolkit';
import { parse } from 'graphql';
import 'graphiql/graphiql.css';
import './main.css';

const TOKEN_KEY = 'quire-token';

function readToken() {
  try {
    return window.localStorage.getItem(TOKEN_KEY) || '';
  } catch {
    return '';
  }
}

function writeToken(token) {
  try {
    if (token) window.localStorage.setItem(TOKEN_KEY, token);
    else window.localStorage.removeItem(TOKEN_KEY);
  } catch {
    // Storage may be disabled; the token then lives for this page only.
  }
}

// socketURL is the WebSocket URL of the endpoint, on this page's origin.
function socketURL(endpoint) {
  const u = new URL(endpoint, window.location.href);
  u.protocol = u.protocol === 'https:' ? 'wss:' : 'ws:';
  return u.toString();
}

// postJSON is the HTTP fetch GraphiQL's fetcher uses: no cookies (the token
// is the only credential), and an answer that is not JSON becomes an error
// the result panel shows instead of a parse failure.
async function postJSON(url, init) {
  const res = await fetch(url, { ...init, credentials: 'omit' });
  const text = await res.text();
  return {
    json: async () => {
      try {
        return JSON.parse(text);
      } catch {
        return { errors: [{ message: `HTTP ${res.status}: ${text.slice(0, 500)}` }] };
      }
    },
  };
}

// parsed is the document of the operation sent. GraphiQL's own copy is
// refreshed a moment after each edit, so an operation run right after the
// editor changed could be taken for the previous one (a subscription sent
// over HTTP); the fetcher decides on what it sends instead.
function parsed(query) {
  try {
    return parse(query);
  } catch {
    return undefined;
  }
}

// makeFetcher builds GraphiQL's fetcher for each operation with the token
// read at call time, so an operation run right after typing uses the token
// just typed. Queries and mutations are POSTed with "Authorization: Bearer
// <token>"; subscriptions open a WebSocket to the same endpoint (graphql-ws,
// the graphql-transport-ws protocol) with the token in connection_init's
// payload, which is how the server authenticates a socket. Headers from
// GraphiQL's headers editor are sent too (in the payload for a socket) and
// win over the field. Each subscription has its own socket, closed when it
// ends (the stop button), so a changed token applies to the next one.
function makeFetcher(endpoint, tokenRef) {
  return (params, opts) => {
    const token = tokenRef.current.trim();
    const auth = token ? { Authorization: `Bearer ${token}` } : {};
    return createGraphiQLFetcher({
      url: endpoint,
      headers: { Accept: 'application/json', ...auth },
      fetch: postJSON,
      enableIncrementalDelivery: false,
      subscriptionUrl: socketURL(endpoint),
      wsConnectionParams: auth,
    })(params, { ...opts, documentAST: parsed(params.query) });
  };
}

function App({ endpoint, title }) {
  const [token, setToken] = useState(readToken);
  const [schemaToken, setSchemaToken] = useState(token);
  const [shown, setShown] = useState(false);
  const tokenRef = useRef(token);
  tokenRef.current = token;

  // Refetch the schema (GraphiQL introspects again when the fetcher changes)
  // once typing pauses.
  useEffect(() => {
    const t = setTimeout(() => setSchemaToken(token), 400);
    return () => clearTimeout(t);
  }, [token]);
  const fetcher = useMemo(() => makeFetcher(endpoint, tokenRef), [endpoint, schemaToken]);

  const initialQuery = useMemo(() => new URLSearchParams(window.location.search).get('query') || undefined, []);

  const onToken = (e) => {
    const v = e.target.value;
    tokenRef.current = v;
    setToken(v);
    writeToken(v.trim());
  };

  return (
    <div className="quire-page">
      <header className="quire-bar">
        <label htmlFor="quire-token" className="quire-label">
          API token
        </label>
        <input
          id="quire-token"
          name="quire-token"
          className="quire-token"
          type={shown ? 'text' : 'password'}
          autoComplete="off"
          spellCheck={false}
          placeholder="Paste an API token (sent as Authorization: Bearer …)"
          value={token}
          onChange={onToken}
        />
        <button type="button" className="quire-show" onClick={() => setShown((v) => !v)}>
          {shown ? 'Hide' : 'Show'}
        </button>
        <span className="quire-hint">{token.trim() ? 'Token saved in this browser' : 'No token: requests will be refused'}</span>
      </header>
      <div className="quire-graphiql">
        <GraphiQL fetcher={fetcher} query={initialQuery} defaultEditorToolsVisibility={false} shouldPersistHeaders={false}>
          <GraphiQL.Logo>{title}</GraphiQL.Logo>
        </GraphiQL>
      </div>
    </div>
  );
}

const root = document.getElementById('graphiql');
createRoot(root).render(<App endpoint={root.dataset.endpoint || window.location.pathname} title={root.dataset.title || 'GraphiQL'} />);
