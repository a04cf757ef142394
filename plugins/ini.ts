/** Reading haraka-config ini objects (`{section: {key: value}}`) without trusting their shape. */
export function iniValue(ini: unknown, section: string, key: string): unknown {
  if (typeof ini !== 'object' || ini === null) return undefined;
  const sect: unknown = (ini as Record<string, unknown>)[section];
  if (typeof sect !== 'object' || sect === null) return undefined;
  return (sect as Record<string, unknown>)[key];
}

/** An integer setting; a missing or malformed one is a rendering bug and stops Haraka at boot. */
export function iniInteger(ini: unknown, file: string, section: string, key: string): number {
  const value = iniValue(ini, section, key);
  const n = typeof value === 'number' ? value : typeof value === 'string' ? Number(value) : NaN;
  if (!Number.isInteger(n))
    throw new Error(`${file} [${section}] ${key}: expected an integer, got ${String(value)}`);
  return n;
}
