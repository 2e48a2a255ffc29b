// Connections kept open between requests to the same service: one keep-alive agent per origin
// (scheme, host and port), so a share of many small files pays for one TCP (and TLS) set-up
// instead of one per file. Requests through a proxy keep the proxy's own agent (env-proxy.ts):
// pooling never routes around the proxy set-up.
//
// A pooled connection that the server closes while it sits idle would fail on our next write,
// and a reset after the body went reads as "may have been delivered". So an idle connection is
// dropped before the server drops it: after IDLE_MS, or one second before the server's own
// `Keep-Alive: timeout=N` hint when that is shorter (Node's Agent reads the hint,
// lib/_http_agent.js keepSocketAlive). Nothing is ever re-sent because a pooled connection broke.
import type { Agent } from 'node:http';
import { http, https } from './node-http';

/** Node's own http.Server closes idle connections after 5 s; nginx's default is 75 s. */
const IDLE_MS = 4000;

export interface ConnectionPool {
  agentFor(url: URL): Agent;
  /** Closes every idle connection (in-flight requests finish on theirs). */
  destroy(): void;
}

export function createConnectionPool(): ConnectionPool {
  const agents = new Map<string, Agent>();
  return {
    agentFor(url) {
      let agent = agents.get(url.origin);
      if (!agent) {
        const mod = url.protocol === 'https:' ? https : http;
        // lifo: the connection used last is the one least likely to have been closed meanwhile.
        agent = new mod.Agent({ keepAlive: true, timeout: IDLE_MS, scheduling: 'lifo' });
        agents.set(url.origin, agent);
      }
      return agent;
    },
    destroy() {
      for (const agent of agents.values()) agent.destroy();
      agents.clear();
    },
  };
}
