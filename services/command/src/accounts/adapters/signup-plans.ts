// The plans a new organization can start on, as the account-creating paths (the admin routes,
// the organization routes, headless initialisation) see them: the port billing-signup.ts implements.
import type { Request } from 'express';

export interface SignupPlans {
  /** The plan a new organization starts on (§11 signup: trial, free or the default plan). */
  signupPlan(): string;
  isPlan(slug: string): boolean;
  /**
   * Runs once a new organization exists on signupPlan() (not on a plan the operator asked for):
   * starts its trial at the payments processor. Never throws: the account exists either way.
   */
  afterSignup?(organization: { id: string; name: string }, context: { requestId: string; email: string; log: Request['log'] }): Promise<void>;
}
