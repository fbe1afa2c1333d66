// Trust over time as a small inline SVG line (no script, no external image): 0–100 maps to the
// height, sessions are spaced evenly, the latest point is marked.
import type { TrustPoint } from '../../../services/session-overview.ts';

const W = 120;
const H = 30;
const PAD = 3;

/** SVG polyline points for scores (0–100), oldest first. */
export function sparkPoints(scores: number[], width = W, height = H): [number, number][] {
  if (scores.length === 0) return [];
  const step = scores.length === 1 ? 0 : (width - 2 * PAD) / (scores.length - 1);
  return scores.map((s, i) => {
    const clamped = Math.max(0, Math.min(100, s));
    const x = scores.length === 1 ? width / 2 : PAD + i * step;
    const y = PAD + ((100 - clamped) / 100) * (height - 2 * PAD);
    return [Math.round(x * 10) / 10, Math.round(y * 10) / 10];
  });
}

export function Sparkline({ points, label }: { points: TrustPoint[]; label: string }) {
  const xy = sparkPoints(points.map((p) => p.score));
  if (xy.length === 0) return null;
  const last = xy[xy.length - 1];
  const y80 = PAD + 0.2 * (H - 2 * PAD);
  return (
    <svg class="spark" width={W} height={H} viewBox={`0 0 ${W} ${H}`} role="img" aria-label={label}>
      <title>{label}</title>
      <line x1={0} x2={W} y1={y80} y2={y80} />
      <polyline points={xy.map(([x, y]) => `${x},${y}`).join(' ')} />
      <circle cx={last[0]} cy={last[1]} r={2.5} />
    </svg>
  );
}
