// GraphiQL for Quire, served by GET /graphql (internal/graphiql).
//
// The page carries no token: the API token is typed into the field above the
// editor, kept in localStorage and sent as "Authorization: Bearer <token>" on
// every request the page makes to the endpoint. GraphiQL 3 brings the docs
// explorer and the query history as built-in plugins.
import React, { useEffect, useMemo, useRef, useState } from 'react';
import { createRoot } from 'react-dom/client';
import { GraphiQL } from 'graphiql';
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

// makeFetcher posts operations to the endpoint with the token read at call
// time, so a query run right after typing uses the token just typed. Headers
// from GraphiQL's headers editor are sent too and win over the field.
function makeFetcher(endpoint, tokenRef) {
  return async (params, opts) => {
    const headers = { 'Content-Type': 'application/json', Accept: 'application/json' };
    const token = tokenRef.current.trim();
    if (token) headers.Authorization = `Bearer ${token}`;
    Object.assign(headers, (opts && opts.headers) || {});
    const res = await fetch(endpoint, {
      method: 'POST',
      headers,
      body: JSON.stringify(params),
      credentials: 'omit',
    });
    const text = await res.text();
    try {
      return JSON.parse(text);
    } catch {
      return { errors: [{ message: `HTTP ${res.status}: ${text.slice(0, 500)}` }] };
    }
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
