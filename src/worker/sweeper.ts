// The worker's housekeeping timer: sweeps once shortly after start, then every interval, through
// the maintenance service (services/maintenance.ts says what a sweep removes).
import type { Log, MaintenanceService, SweepResult } from '../services/index.ts';

export interface Sweeper {

  stop(): Promise<void>;
}

/** Sweeps once shortly after start, then every `intervalMs`; a tick during a sweep is skipped. */
export function startSweeper(maintenance: MaintenanceService, deps: { intervalMs: number; log: Log; onSwept?: (r: SweepResult) => void }): Sweeper {
  let running: Promise<void> | null = null;
  const sweep = () => {
    if (running) return;
    running = maintenance.sweep()
      .then(
        (r) => {
          if (Object.values(r).some((n) => n > 0)) deps.log.info({ removed: r }, 'swept expired rows');
          deps.onSwept?.(r);
        },
        (err: unknown) => deps.log.warn({ err: String(err) }, 'sweep failed; trying again at the next interval'),
      )
      .finally(() => {
        running = null;
      });
  };
  const first = setTimeout(sweep, Math.min(deps.intervalMs, 5_000));
  const timer = setInterval(sweep, deps.intervalMs);
  first.unref();
  timer.unref();
  return {
    async stop() {
      clearTimeout(first);
      clearInterval(timer);
      await running;
    },
  };
}
