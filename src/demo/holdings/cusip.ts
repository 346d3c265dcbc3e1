/** CUSIP check digits (the modulus-10 "double-add-double" rule of the CUSIP standard). */

function charValue(c: string): number {
  if (c >= '0' && c <= '9') return c.charCodeAt(0) - 48;
  if (c >= 'A' && c <= 'Z') return c.charCodeAt(0) - 55;
  return { '*': 36, '@': 37, '#': 38 }[c] ?? 0;
}

/** The check digit of an 8-character CUSIP base. */
export function cusipCheckDigit(base: string): string {
  let sum = 0;
  for (let i = 0; i < 8; i++) {
    let v = charValue(base[i] as string);
    if (i % 2 === 1) v *= 2;
    sum += Math.floor(v / 10) + (v % 10);
  }
  return String((10 - (sum % 10)) % 10);
}

export function isValidCusip(cusip: string): boolean {
  return /^[0-9A-Z*@#]{8}\d$/.test(cusip) && cusipCheckDigit(cusip.slice(0, 8)) === cusip[8];
}

export function withCheckDigit(base: string): string {
  return base + cusipCheckDigit(base);
}
