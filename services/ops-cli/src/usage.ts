export const USAGE = `Usage: npm run ops -- <command> [options]

Commands:
  topics                          topics with partition counts, low and high watermarks
  lag [--group G]                 consumer lag per group and topic-partition (committed vs high watermark)
  dlq list                        dead-letter topics, their records and what re-drive has not yet taken
  dlq inspect <topic> [--offset N] [--limit N] [--partition P]
                                  dead letters: why each was set aside, its origin, its decoded payload
  dlq redrive <topic>             appends the dead letters to their origin topic again (after the fix)
  replay <read-model>             rebuilds a read model from its topic, with a progress bar (spans)
  events <aggregate-key>          the accounts events of one aggregate (e.g. user:ada@example.com)
  export <spans|traces> --out FILE [--format jsonl|csv|parquet] [--body JSON]
                                  a project's spans or traces (POST /spans/export, /traces/export) into
                                  FILE, with a progress bar; --body: filtering, windowing, query_ref …

<topic> of dlq commands: spans | accounts | platform | deliveries, or a topic name (with or without .dlq).

Options:
  --json                          one JSON document on stdout (progress and logs go to stderr)
  -h, --help                      this text

Environment: KAFKA_BROKERS (default: the broker of npm start), KAFKA_TOPIC_PREFIX (only topics with
this prefix are shown), KAFKA_CLIENT, OPS_CONNECT_TIMEOUT_MS (default 5000), LOG_LEVEL (client logs on
stderr; default silent); replay: as npm run replay (CLICKHOUSE_URL, or BASE_URL / ADMIN_TOKEN);
export: OPS_API_KEY (the project's API key, required), BASE_URL (default http://127.0.0.1:$PORT).

Exit codes: 0 done, 1 operational failure (e.g. broker unreachable), 2 usage error.`;
