/** Every latency of a phase, in milliseconds; percentiles are read off the sorted samples. */
export class LatencyRecorder {
  private samples = new Float64Array(1024);
  private size = 0;

  record(ms: number): void {
    if (this.size === this.samples.length) {
      const grown = new Float64Array(this.samples.length * 2);
      grown.set(this.samples);
      this.samples = grown;
    }
    this.samples[this.size++] = ms;
  }

  get count(): number {
    return this.size;
  }

  /** p50, p90, p99 and max (nearest-rank), in milliseconds; zeros when nothing was recorded. */
  summary(): { p50: number; p90: number; p99: number; max: number } {
    if (this.size === 0) return { p50: 0, p90: 0, p99: 0, max: 0 };
    const sorted = this.samples.slice(0, this.size).sort();
    const at = (q: number) => sorted[Math.min(this.size - 1, Math.max(0, Math.ceil(q * this.size) - 1))]!;
    return { p50: at(0.5), p90: at(0.9), p99: at(0.99), max: sorted[this.size - 1]! };
  }
}
