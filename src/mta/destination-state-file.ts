import fs from 'node:fs';
import { PRIVATE_FILE_MODE } from '../shared/private-files';

/**
 * One small JSON file in DATA_DIR that the mta rewrites (the pacing metrics snapshot, the
 * back-off table). Written off Haraka's event loop (fs.promises: the SMTP sessions go on
 * meanwhile), whole or not at all (a temporary file renamed over the old one: a reader never
 * sees half a file, a crash leaves the previous version), private (PRIVATE_FILE_MODE, whatever
 * the umask). At most one write runs at a time; texts handed in meanwhile collapse into the
 * latest, which is written next.
 */
export class StateFile {
  private running: Promise<void> | undefined;
  private pending: string | undefined;

  constructor(
    private readonly file: () => string,
    private readonly onError: (err: unknown) => void,
  ) {}

  write(text: string): void {
    this.pending = text;
    this.running ??= this.drain();
  }

  /** Resolves once every text handed in so far is on disk (or failed and was reported). */
  async flushed(): Promise<void> {
    while (this.running !== undefined) await this.running;
  }

  private async drain(): Promise<void> {
    while (this.pending !== undefined) {
      const text = this.pending;
      this.pending = undefined;
      const file = this.file();
      const tmp = `${file}.tmp`;
      try {
        await fs.promises.writeFile(tmp, text, { mode: PRIVATE_FILE_MODE });
        await fs.promises.rename(tmp, file);
      } catch (err) {
        this.onError(err);
      }
    }
    this.running = undefined;
  }
}

/** The file's text, or undefined when there is none (a first start). Other errors are thrown. */
export function readStateFile(file: string): string | undefined {
  try {
    return fs.readFileSync(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw err;
  }
}
