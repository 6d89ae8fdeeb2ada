import cliProgress from 'cli-progress';

/**
 * A progress bar on stderr with rate and ETA when stderr is a terminal; elsewhere (CI logs) one
 * line per stage when it starts and ends, so logs stay short.
 */
export interface ProgressReporter {
  update(stage: string, done: number, total: number): void;
  stop(): void;
}

export function progressReporter(stream: NodeJS.WriteStream = process.stderr, quiet = false): ProgressReporter {
  if (quiet) return { update: () => {}, stop: () => {} };
  let stage = '';
  let started = 0;
  if (stream.isTTY) {
    const bar = new cliProgress.SingleBar(
      { stream, format: ' {stage} |{bar}| {value}/{total} | {rate}/s | ETA {eta_formatted}', hideCursor: true, clearOnComplete: false, etaBuffer: 20 },
      cliProgress.Presets.shades_classic,
    );
    let active = false;
    return {
      update(s, done, total) {
        if (s !== stage) {
          if (active) {
            bar.update(bar.getTotal());
            bar.stop();
          }
          stage = s;
          started = Date.now();
          bar.start(total, done, { stage: s.padEnd(8), rate: '0' });
          active = true;
        }
        const secs = (Date.now() - started) / 1000;
        bar.setTotal(total);
        bar.update(done, { rate: secs > 0 ? (done / secs).toFixed(0) : '0' });
      },
      stop() {
        if (active) {
          bar.update(bar.getTotal());
          bar.stop();
        }
        active = false;
      },
    };
  }
  return {
    update(s, done, total) {
      if (s !== stage) {
        if (stage) stream.write(`  ${stage} done in ${((Date.now() - started) / 1000).toFixed(1)} s\n`);
        stage = s;
        started = Date.now();
        stream.write(`  ${s}…\n`);
      }
      if (done === total && total > 1) {
        /* the end of a stage is reported when the next one starts, or by stop() */
      }
    },
    stop() {
      if (stage) stream.write(`  ${stage} done in ${((Date.now() - started) / 1000).toFixed(1)} s\n`);
      stage = '';
    },
  };
}
