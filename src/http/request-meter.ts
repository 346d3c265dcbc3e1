/**
 * Request counts, latency histograms and response-cache lookups, recorded with plain counters:
 * prom-client's inc()/observe() validate and hash their labels on every call (about 0.5 µs a
 * request, bound children included), which is a noticeable share of a cached answer. Each (method,
 * route pattern) has a slot, found by two Map lookups or held by the caller (the cache's front door
 * keeps the slot with each URL it knows), and the registry reads the slots only when /metrics is
 * scraped, in exactly the shape prom-client's own Counter and Histogram give it.
 */
import type { Metric, Registry } from 'prom-client';

type Labels = Record<string, string | number>;

interface MetricValue {
  value: number;
  labels: Labels;
  sharedLabels?: Labels;
  metricName?: string;
}

export class RouteSlot {
  readonly statuses = new Map<number, number>();
  /** Observations per latency bucket (not cumulative); the last one is +Inf. */
  readonly buckets: number[];
  sum = 0;
  count = 0;

  constructor(
    readonly labels: { readonly method: string; readonly route: string },
    private readonly bounds: readonly number[],
  ) {
    this.buckets = new Array<number>(bounds.length + 1).fill(0);
  }

  record(status: number, seconds: number): void {
    this.statuses.set(status, (this.statuses.get(status) ?? 0) + 1);
    let bucket = 0;
    while (bucket < this.bounds.length && seconds > (this.bounds[bucket] as number)) bucket++;
    this.buckets[bucket] = (this.buckets[bucket] as number) + 1;
    this.sum += seconds;
    this.count++;
  }
}

export class RequestMeter {
  private readonly byMethod = new Map<string, Map<string, RouteSlot>>();
  private hits = 0;
  private misses = 0;

  constructor(private readonly bounds: readonly number[]) {}

  slot(method: string, route: string): RouteSlot {
    let byRoute = this.byMethod.get(method);
    if (!byRoute) {
      byRoute = new Map();
      this.byMethod.set(method, byRoute);
    }
    let slot = byRoute.get(route);
    if (!slot) {
      slot = new RouteSlot({ method, route }, this.bounds);
      byRoute.set(route, slot);
    }
    return slot;
  }

  cacheLookup(hit: boolean): void {
    if (hit) this.hits++;
    else this.misses++;
  }

  /** Registers http_requests_total, http_request_duration_seconds and regdata_cache_lookups_total. */
  register(registry: Registry): void {
    const slots = () => [...this.byMethod.values()].flatMap((byRoute) => [...byRoute.values()]);
    registry.registerMetric(
      exposed(
        'http_requests_total',
        'HTTP requests answered, by method, route pattern and status code',
        'counter',
        () =>
          slots().flatMap((slot) =>
            [...slot.statuses].map(([status, value]) => ({
              value,
              labels: { ...slot.labels, status: String(status) },
            })),
          ),
      ),
    );
    registry.registerMetric(
      exposed(
        'http_request_duration_seconds',
        'Time from request received to response sent, in seconds, by method and route pattern',
        'histogram',
        () => slots().flatMap((slot) => this.histogramValues(slot)),
      ),
    );
    registry.registerMetric(
      exposed(
        'regdata_cache_lookups_total',
        'Response-cache lookups of cacheable GETs, by result (hit or miss)',
        'counter',
        () => [
          { value: this.hits, labels: { result: 'hit' } },
          { value: this.misses, labels: { result: 'miss' } },
        ],
      ),
    );
  }

  private histogramValues(slot: RouteSlot): MetricValue[] {
    const name = 'http_request_duration_seconds';
    const shared = slot.labels;
    let cumulative = 0;
    const values: MetricValue[] = this.bounds.map((le, i) => {
      cumulative += slot.buckets[i] as number;
      return { value: cumulative, labels: { le }, sharedLabels: shared, metricName: `${name}_bucket` };
    });
    values.push(
      { value: slot.count, labels: { le: '+Inf' }, sharedLabels: shared, metricName: `${name}_bucket` },
      { value: slot.sum, labels: {}, sharedLabels: shared, metricName: `${name}_sum` },
      { value: slot.count, labels: {}, sharedLabels: shared, metricName: `${name}_count` },
    );
    return values;
  }
}

/**
 * A metric in the shape Registry reads (name, type and an async get()), which prom-client's typings
 * only describe through its own classes: hence the cast.
 */
function exposed(
  name: string,
  help: string,
  type: 'counter' | 'histogram',
  values: () => MetricValue[],
): Metric {
  const read = async () => ({ name, help, type, aggregator: 'sum', values: values() });
  return { name, help, type, aggregator: 'sum', get: read, reset() {} } as unknown as Metric;
}
