/**
 * Keep-alive connections for the guarded fetch, without weakening its guard. Every request is
 * still resolved and checked first (resolve-destination.ts); only then is an agent picked, keyed by
 * exactly what the check decided: protocol, checked address, port and TLS servername (the trust
 * anchors are fixed per fetch instance, which owns its pool). A socket in that agent was connected
 * to the same checked address with the same TLS settings, so reusing it reaches nothing the fresh
 * connection would not. A destination whose DNS answer changes is checked again and lands on
 * another agent (or is refused before any agent is consulted).
 *
 * Bounds: `maxSockets` per agent, idle sockets closed after `idleMs`, at most `maxAgents` agents
 * (the least recently used one retired on overflow). A socket whose exchange failed (timeout, abort,
 * body over the limit, parse or socket error) is destroyed by request-once, never returned.
 */
import http from 'node:http';
import https from 'node:https';

export type PoolKey = { protocol: string; address: string; port: string; servername: string };

export type PoolLimits = {
  /** Concurrent sockets per destination agent. */
  maxSockets: number;
  /** Idle keep-alive sockets are closed after this long (below Node's 5 s server keep-alive default). */
  idleMs: number;
  /** Destination agents kept; the least recently used is destroyed beyond this. */
  maxAgents: number;
};

export const DEFAULT_POOL_LIMITS: PoolLimits = { maxSockets: 32, idleMs: 4000, maxAgents: 128 };

export interface ConnectionPool {
  agentFor(key: PoolKey): http.Agent;
  /** Destroys every agent and its sockets (idle and in use); later requests open new agents. */
  close(): void;
  /** Agents currently held, for tests and bounds checks. */
  readonly size: number;
}

/**
 * Ends an evicted agent: its idle sockets at once; a socket still carrying a request finishes it and
 * is then closed instead of kept (no free slot left), so eviction never fails a request in flight.
 */
function retire(agent: http.Agent): void {
  agent.maxFreeSockets = 0;
  for (const sockets of Object.values(agent.freeSockets)) for (const socket of sockets ?? []) socket.destroy();
}

export function createConnectionPool(limits: PoolLimits = DEFAULT_POOL_LIMITS): ConnectionPool {
  // Map iteration order is insertion order: re-inserting on use keeps the LRU agent first.
  const agents = new Map<string, http.Agent>();
  return {
    agentFor(key) {
      const name = [key.protocol, key.address, key.port, key.servername].join('|');
      const found = agents.get(name);
      if (found) {
        agents.delete(name);
        agents.set(name, found);
        return found;
      }
      const options = { keepAlive: true, maxSockets: limits.maxSockets, maxFreeSockets: limits.maxSockets, timeout: limits.idleMs, scheduling: 'lifo' as const };
      const agent = key.protocol === 'https:' ? new https.Agent(options) : new http.Agent(options);
      agents.set(name, agent);
      if (agents.size > limits.maxAgents) {
        const [oldest, evicted] = agents.entries().next().value as [string, http.Agent];
        agents.delete(oldest);
        retire(evicted);
      }
      return agent;
    },
    close() {
      for (const agent of agents.values()) agent.destroy();
      agents.clear();
    },
    get size() {
      return agents.size;
    },
  };
}
