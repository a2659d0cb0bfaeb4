import { generateSecret, generateURI, verify } from 'otplib';

// RFC 6238 as every authenticator app reads it: HMAC-SHA-1, 30-second steps, 6 digits.
const PERIOD_SECONDS = 30;
// One step either side: a code typed as the phone rolls over, or a few seconds of clock drift, still works.
const TOLERANCE_SECONDS = PERIOD_SECONDS;

/** A new base32 secret of 20 random bytes (160 bits, RFC 4226's recommendation). */
export const newTotpSecret = (): string => generateSecret({ length: 20 });

/** The `otpauth://totp/...` URI authenticator apps read from the QR code. */
export function totpUri(secret: string, issuer: string, account: string): string {
  return generateURI({ issuer, label: account, secret, algorithm: 'sha1', digits: 6, period: PERIOD_SECONDS });
}

/** The URI as a QR code in SVG markup, drawn here: the secret never leaves for a QR service. */
export async function qrCodeSvg(uri: string): Promise<string> {
  // Loaded at the first enrolment, not by every server at start (peak RSS, npm run bench).
  const { default: QRCode } = await import('qrcode');
  return QRCode.toString(uri, { type: 'svg', errorCorrectionLevel: 'M', margin: 2 });
}

/**
 * The time step a code is valid for at `nowMs`, or null when it matches none in the window. Steps at
 * or before `afterStep` (the last one accepted) are refused, so a used code cannot be replayed.
 */
export async function matchingTotpStep(secret: string, code: string, nowMs: number, afterStep: number | null): Promise<number | null> {
  if (!/^\d{6}$/.test(code)) return null;
  const result = await verify({
    secret,
    token: code,
    epoch: Math.floor(nowMs / 1000),
    epochTolerance: TOLERANCE_SECONDS,
    period: PERIOD_SECONDS,
    ...(afterStep === null ? {} : { afterTimeStep: afterStep }),
  });
  // A TOTP verification names the step it matched; only an HOTP one would not.
  return result.valid && 'timeStep' in result ? result.timeStep : null;
}
