// Which command-line tools the local stack needs are missing (Java 17+ and Maven for the jars from
// Maven Central, plus any extra tools), each with a hint how to install it.
import { spawnSync } from 'node:child_process';

export function missingTools(extra = []) {
  const missing = [];
  const java = spawnSync('java', ['-version'], { encoding: 'utf8' });
  const major = Number(/version "(\d+)/.exec(java.stderr ?? '')?.[1] ?? 0);
  if (java.error || java.status !== 0 || major < 17) missing.push('java: install Java 17+ (e.g. `apt-get install openjdk-17-jre-headless`)');
  for (const [cmd, args, hint] of [['mvn', ['-v'], 'Maven (e.g. `apt-get install maven`)'], ...extra]) {
    const r = spawnSync(cmd, args, { encoding: 'utf8' });
    if (r.error || r.status !== 0) missing.push(`${cmd}: install ${hint}`);
  }
  return missing;
}
