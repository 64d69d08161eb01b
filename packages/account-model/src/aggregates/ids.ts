// Ids as the rules compare them: a UUID names the same row whatever the case of its hex digits (the
// readers look rows up as `uuid`, which ignores case), so the rules must ignore it too.
export const sameId = (a: string, b: string): boolean => a.toLowerCase() === b.toLowerCase();
