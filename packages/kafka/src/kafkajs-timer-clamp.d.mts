/** See kafkajs-timer-clamp.mjs: clamps kafkajs' request-queue timer at its computation (idempotent). */
export declare function clampKafkajsTimers(): boolean;
