// Quotas (reference accounts §2.2–§2.3): periods with the billing anchor, the admission predicate,
// the exact meters' reader, and admission before acknowledgement on the ingest paths.
export { periodRange, dayOf, type DayRange, type Period } from './period.ts';
export { admits } from './admission.ts';
export { counterValue, usersGauge, METERED_COUNTERS, type MeterQuery } from './meters.ts';
export { IngestAdmission, type Admission, type AdmittedCounter, type IngestAdmissionOptions } from './ingest-admission.ts';
export { postgresAdmissionStore, type AdmissionStore, type Reservation, type TraceReservation, type TraceReservationResult } from './admission-store.ts';
export { usageReport, type UsageEntry, type UsageScope } from './usage-report.ts';
