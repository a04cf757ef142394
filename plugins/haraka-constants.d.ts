// haraka-constants 1.0.8 ships no types: the hook return codes we use (index.js).
declare module 'haraka-constants' {
  const constants: {
    readonly cont: number;
    readonly stop: number;
    readonly deny: number;
    readonly denysoft: number;
    readonly denydisconnect: number;
    readonly disconnect: number;
    readonly ok: number;
    readonly denysoftdisconnect: number;
    /** A return code's name, e.g. 902 → 'DENY'. */
    translate(value: number): string;
  };
  export = constants;
}
