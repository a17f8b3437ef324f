// How sure a percentage measured on a sample is: the Wilson score interval at 95 % (it stays inside 0–100 and
// behaves at 0 and 100 %, where the textbook ±1.96·√(p(1−p)/n) collapses), narrowed by the finite-population
// correction √((N − n)/(N − 1)) since the sample is drawn without replacement from the N pages found. When every
// page found was read there is nothing to infer: no interval.
const Z95 = 1.959964;

export function wilsonInterval(covered: number, sampled: number, population: number): { low: number; high: number } | null {
  if (sampled <= 0 || sampled >= population) return null;
  const fpc = Math.sqrt((population - sampled) / (population - 1));
  const z = Z95 * fpc;
  const p = covered / sampled;
  const z2n = (z * z) / sampled;
  const centre = (p + z2n / 2) / (1 + z2n);
  const half = (z * Math.sqrt((p * (1 - p)) / sampled + (z * z) / (4 * sampled * sampled))) / (1 + z2n);
  const pct = (x: number) => Math.round(Math.min(1, Math.max(0, x)) * 1000) / 10;
  return { low: pct(centre - half), high: pct(centre + half) };
}
