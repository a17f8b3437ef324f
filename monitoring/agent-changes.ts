// What changed in the agents matrix between two scans of a host (schemas/agents.ts): an agent that got a page in
// the scan before and is now blocked, challenged or shown another page, or the reverse. Read from stored reports,
// so every field is checked before it is used.

export interface AgentChange {
  agent: string;
  page: 'home' | 'product';
  from: string; // its access in the scan before: served, blocked, challenged, rate_limited, degraded, failed
  to: string;
}

interface VisitLike {
  access?: unknown;
}
interface RowLike {
  agent?: unknown;
  home?: VisitLike | null;
  product?: VisitLike | null;
}

/** Each agent's access per page in a stored report, when it ran the matrix. */
function accessOf(report: unknown): Map<string, string> | null {
  const agents = (report as { agents?: { status?: unknown; rows?: unknown } } | null)?.agents;
  if (!agents || agents.status !== 'checked' || !Array.isArray(agents.rows)) return null;
  const out = new Map<string, string>();
  for (const row of agents.rows as RowLike[]) {
    if (typeof row?.agent !== 'string') continue;
    for (const page of ['home', 'product'] as const) {
      const access = row[page]?.access;
      if (typeof access === 'string') out.set(`${row.agent}\u0000${page}`, access);
    }
  }
  return out;
}

/** The pages whose answer changed for an agent asked in both scans; empty when either scan has no matrix. */
export function agentChanges(previous: unknown, current: unknown, max = 40): AgentChange[] {
  const before = accessOf(previous);
  const after = accessOf(current);
  if (!before || !after) return [];
  const changes: AgentChange[] = [];
  for (const [key, to] of after) {
    const from = before.get(key);
    if (from === undefined || from === to) continue;
    const [agent, page] = key.split('\u0000') as [string, 'home' | 'product'];
    changes.push({ agent: agent.slice(0, 80), page, from, to });
  }
  return changes.slice(0, max);
}
