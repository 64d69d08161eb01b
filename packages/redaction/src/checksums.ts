// The checks that turn a digit-shaped candidate into a payment card or an IBAN: Luhn (ISO/IEC 7812)
// and ISO 13616's mod-97. A candidate that fails stays as written.

/** Luhn over the digits of `s` (other characters are skipped). */
export function luhnValid(s: string): boolean {
  let sum = 0;
  let double = false;
  let digits = 0;
  for (let i = s.length - 1; i >= 0; i--) {
    const c = s.charCodeAt(i) - 48;
    if (c < 0 || c > 9) continue;
    digits++;
    let d = c;
    if (double) { d *= 2; if (d > 9) d -= 9; }
    sum += d;
    double = !double;
  }
  return digits > 0 && sum % 10 === 0;
}

/** ISO 13616 mod-97 over an IBAN without spaces (country, check digits, BBAN; upper case). */
export function ibanValid(iban: string): boolean {
  if (iban.length < 15 || iban.length > 34) return false;
  const moved = iban.slice(4) + iban.slice(0, 4);
  let rem = 0;
  for (let i = 0; i < moved.length; i++) {
    const c = moved.charCodeAt(i);
    if (c >= 48 && c <= 57) rem = (rem * 10 + (c - 48)) % 97;
    else if (c >= 65 && c <= 90) rem = (rem * 100 + (c - 55)) % 97;
    else return false;
  }
  return rem === 1;
}
