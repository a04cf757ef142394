/**
 * Admission of inbound messages into processing, bounded by count AND by bytes:
 * each run holds its whole message (and mailparser's copies) in memory, so a few
 * large messages must not run together, while many small ones should — their
 * store transactions then share commits and the runner claims them in batches
 * (issue 11, inbound). First come, first served: a message waits until it fits,
 * and one larger than the whole budget runs alone.
 */
export interface InboundLimit {
  /** Resolves when a message of `bytes` may run; call the returned release when it is done. */
  acquire(bytes: number): Promise<() => void>;
}

export function inboundLimit(maxJobs: number, maxBytes: number): InboundLimit {
  let jobs = 0;
  let bytes = 0;
  const waiting: { readonly bytes: number; readonly admit: () => void }[] = [];
  const fits = (b: number): boolean => jobs === 0 || (jobs < maxJobs && bytes + b <= maxBytes);
  const admitWaiting = (): void => {
    for (let head = waiting[0]; head !== undefined && fits(head.bytes); head = waiting[0]) {
      waiting.shift();
      head.admit();
    }
  };
  return {
    acquire(size) {
      const b = Math.max(0, size);
      return new Promise((resolve) => {
        const admit = (): void => {
          jobs++;
          bytes += b;
          let released = false;
          resolve(() => {
            if (released) return;
            released = true;
            jobs--;
            bytes -= b;
            admitWaiting();
          });
        };
        if (waiting.length === 0 && fits(b)) admit();
        else waiting.push({ bytes: b, admit });
      });
    },
  };
}
