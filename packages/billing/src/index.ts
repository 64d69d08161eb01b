export {
  billingEnv, loadBillingConfig, DEFAULT_BILLING_TARGET,
  type BillingConfig, type BillingEnv, type StripeSettings,
} from './billing-env.ts';
export {
  DEFAULT_CATALOG, FALLBACK_FREE_PLAN, FALLBACK_TRIAL,
  catalogAnswer, plansAnswer, pricingAnswer, lineItemsFor, resolveFreePlan, resolveTrial, resolveSignupPlan, utcDayOfMonth,
  type CatalogConfig, type CatalogEntry, type PlanPricing, type Pricing, type PricingAnswerEntry, type PricingSlot, type SignupPlan, type TrialPlan,
} from './catalog.ts';
export {
  ProcessorEventSchema, ProcessorEventRejected, parseProcessorEvent, interpretProcessorEvent,
  type ErrorBody, type ProcessorAction, type ProcessorEvent, type ProcessorEventContext, type ProcessorEventOutcome, type RejectionReason,
} from './processor-events.ts';
export {
  createPaymentsProcessor, createStripeProcessor, createStripeClient, usageReportKey, PaymentsProcessorError,
  EVENT_TOLERANCE_S, PROCESSOR_TIMEOUT_MS, PROCESSOR_MAX_NETWORK_RETRIES,
  type LineItem, type PaymentsProcessor, type ProcessorErrorKind, type ProcessorSubscription, type StripeProcessorOptions,
  type SubscriptionMetadata, type UsageMeter,
} from './processor.ts';
