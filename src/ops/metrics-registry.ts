/**
 * Counters and histograms rendered in the Prometheus text format (version 0.0.4).
 * Label values come only from closed sets chosen in code (route patterns, status codes,
 * outcome names), never from request data, so no secret and no unbounded value reaches them.
 */

type Labels<Name extends string> = Record<Name, string>;

interface Metric {
  render(): string[];
}

const escapeLabel = (value: string) => value.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n');
const escapeHelp = (value: string) => value.replace(/\\/g, '\\\\').replace(/\n/g, '\\n');

function labelText(names: readonly string[], values: readonly string[], extra = ''): string {
  const parts = names.map((name, i) => `${name}="${escapeLabel(values[i] ?? '')}"`);
  if (extra) parts.push(extra);
  return parts.length > 0 ? `{${parts.join(',')}}` : '';
}

const formatNumber = (value: number) => (Number.isFinite(value) ? String(value) : value > 0 ? '+Inf' : value < 0 ? '-Inf' : 'NaN');

export interface Counter<Name extends string> {
  inc(labels: Labels<Name>, by?: number): void;
  get(labels: Labels<Name>): number;
}

export interface Histogram<Name extends string> {
  observe(labels: Labels<Name>, value: number): void;
  count(labels: Labels<Name>): number;
}

export function createMetricsRegistry() {
  const metrics: Metric[] = [];
  const names = new Set<string>();

  function claim(name: string): void {
    if (names.has(name)) throw new Error(`metric ${name} is registered twice`);
    names.add(name);
  }

  return {
    counter<Name extends string>(name: string, help: string, labelNames: readonly Name[]): Counter<Name> {
      claim(name);
      const values = new Map<string, { labels: string[]; value: number }>();
      const keyOf = (labels: Labels<Name>) => labelNames.map((n) => labels[n]);
      metrics.push({
        render: () => [
          `# HELP ${name} ${escapeHelp(help)}`,
          `# TYPE ${name} counter`,
          ...[...values.values()].map((entry) => `${name}${labelText(labelNames, entry.labels)} ${formatNumber(entry.value)}`),
        ],
      });
      return {
        inc(labels, by = 1) {
          const key = keyOf(labels);
          const id = JSON.stringify(key);
          const entry = values.get(id);
          if (entry) entry.value += by;
          else values.set(id, { labels: key, value: by });
        },
        get: (labels) => values.get(JSON.stringify(keyOf(labels)))?.value ?? 0,
      };
    },

    histogram<Name extends string>(name: string, help: string, labelNames: readonly Name[], buckets: readonly number[]): Histogram<Name> {
      claim(name);
      const bounds = [...buckets].sort((a, b) => a - b);
      const series = new Map<string, { labels: string[]; counts: number[]; sum: number; count: number }>();
      const keyOf = (labels: Labels<Name>) => labelNames.map((n) => labels[n]);
      metrics.push({
        render: () => [
          `# HELP ${name} ${escapeHelp(help)}`,
          `# TYPE ${name} histogram`,
          ...[...series.values()].flatMap((entry) => [
            ...bounds.map((bound, i) => `${name}_bucket${labelText(labelNames, entry.labels, `le="${formatNumber(bound)}"`)} ${entry.counts[i]}`),
            `${name}_bucket${labelText(labelNames, entry.labels, 'le="+Inf"')} ${entry.count}`,
            `${name}_sum${labelText(labelNames, entry.labels)} ${formatNumber(entry.sum)}`,
            `${name}_count${labelText(labelNames, entry.labels)} ${entry.count}`,
          ]),
        ],
      });
      return {
        observe(labels, value) {
          const key = keyOf(labels);
          const id = JSON.stringify(key);
          let entry = series.get(id);
          if (!entry) series.set(id, (entry = { labels: key, counts: bounds.map(() => 0), sum: 0, count: 0 }));
          // Buckets are cumulative: a value counts in every bucket whose bound it does not exceed.
          bounds.forEach((bound, i) => {
            if (value <= bound) entry.counts[i] = (entry.counts[i] ?? 0) + 1;
          });
          entry.sum += value;
          entry.count += 1;
        },
        count: (labels) => series.get(JSON.stringify(keyOf(labels)))?.count ?? 0,
      };
    },

    /** A value read when scraped (memory, uptime). */
    gauge(name: string, help: string, read: () => number, type: 'gauge' | 'counter' = 'gauge'): void {
      claim(name);
      metrics.push({ render: () => [`# HELP ${name} ${escapeHelp(help)}`, `# TYPE ${name} ${type}`, `${name} ${formatNumber(read())}`] });
    },

    render: (): string => `${metrics.flatMap((metric) => metric.render()).join('\n')}\n`,
  };
}

export type MetricsRegistry = ReturnType<typeof createMetricsRegistry>;
