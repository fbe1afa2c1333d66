// Which subagent a record belongs to, and how subagents link to the Task/Agent calls that
// started them. Three layouts exist:
// - v1.0.x inline sidechains: `isSidechain: true` records without an agentId, threaded through
//   parentUuid from a root record; the root's prompt equals the Task call's prompt.
// - v2.x: `agentId` on every sidechain record (standalone agent-*.jsonl files), and in the main
//   file `progress` records (`agent_progress`, `parentToolUseID` = the Task call) mirroring them;
//   the Task result's toolUseResult names the agentId.
// - stream-json: `parent_tool_use_id` on the subagent's messages.
// All maps are bounded: state never grows with the log.
import { text, type Obj } from '../shared/values.ts';
import { boundedAdd, boundedSet } from '../../bounded.ts';

// Sidechain record uuids remembered to thread later records onto their subagent.
const MAX_UUIDS = 50_000;
const MAX_AGENTS = 10_000;
const MAX_TASKS = 1_000;

interface TaskCall {
  prompt: string;
  description: string;
}

export class Subagents {
  private readonly seen = new Set<string>();
  private readonly open = new Set<string>();
  private readonly uuidAgent = new Map<string, string>();
  private readonly tasks = new Map<string, TaskCall>();
  private readonly callAgent = new Map<string, string>();
  private readonly referenced = new Map<string, number>();

  /** The subagent of a top-level `isSidechain` record; a record with no known parent is a root. */
  sidechainAgent(rec: Obj, line: number): string {
    const uuid = text(rec.uuid);
    const parent = text(rec.parentUuid);
    let id = text(rec.agentId) ?? (parent === undefined ? undefined : this.uuidAgent.get(parent));
    // A root's own uuid is the stable id of an inline sidechain that names no agent.
    id ??= uuid ?? `sidechain-${line}`;
    if (uuid !== undefined) boundedSet(this.uuidAgent, uuid, id, MAX_UUIDS);
    return id;
  }

  /** Records the agent as seen; true on its first sighting (the caller emits subagent_start). */
  begin(id: string): boolean {
    if (this.seen.has(id)) return false;
    boundedAdd(this.seen, id, MAX_AGENTS);
    boundedAdd(this.open, id, MAX_AGENTS);
    return true;
  }

  noteTask(callId: string, prompt: string, description: string): void {
    boundedSet(this.tasks, callId, { prompt, description }, MAX_TASKS);
  }

  isTask(callId: string): boolean {
    return this.tasks.has(callId) || this.callAgent.has(callId);
  }

  link(callId: string, agentId: string): void {
    boundedSet(this.callAgent, callId, agentId, MAX_TASKS);
  }

  /** The pending Task call whose prompt is exactly `text` (inline sidechain roots), linked to `agentId`. */
  linkByPrompt(text: string, agentId: string): string | undefined {
    if (text === '') return undefined;
    for (const [callId, task] of this.tasks) {
      if (task.prompt !== text || this.callAgent.has(callId)) continue;
      this.link(callId, agentId);
      return callId;
    }
    return undefined;
  }

  description(callId: string | undefined): string | undefined {
    if (callId === undefined) return undefined;
    return this.tasks.get(callId)?.description || undefined;
  }

  /** A subagent tool returned: forget the call, and close its subagent if it is still open. */
  finishCall(callId: string, named: string | undefined): { agentId: string; description?: string } | undefined {
    const agentId = this.callAgent.get(callId) ?? named;
    const description = this.description(callId);
    this.callAgent.delete(callId);
    this.tasks.delete(callId);
    if (agentId === undefined || !this.open.delete(agentId)) return undefined;
    return description === undefined ? { agentId } : { agentId, description };
  }

  /** A result named this agent: if none of its records shows up, its transcript is elsewhere. */
  reference(agentId: string, line: number): void {
    if (!this.referenced.has(agentId)) boundedSet(this.referenced, agentId, line, MAX_AGENTS);
  }

  /** Subagents still open at the end of the log (a standalone agent file, an unfinished Task). */
  closeAll(): string[] {
    const ids = [...this.open];
    this.open.clear();
    return ids;
  }

  /** Referenced subagents none of whose records appeared, with the line that referenced them. */
  missing(): [string, number][] {
    const out: [string, number][] = [];
    for (const [id, line] of this.referenced) if (!this.seen.has(id)) out.push([id, line]);
    return out;
  }
}
