import type { RISK_APPROVAL_ERRORS } from '../catalogue/riskApprovalErrors.ts';
import type { Guidance } from './guidanceEntry.ts';

/** An approval weighed against the risk rating: blocking factors, notes, the second operator. */
export const RISK_APPROVAL_GUIDANCE: { readonly [K in keyof typeof RISK_APPROVAL_ERRORS]: Guidance } = {
  riskFactorBlocksApproval: {
    cause:
      "The application's latest risk assessment has a factor open that the risk policy says blocks approval (`blocks_approval`): a required image not kept, an open sanctions hit. `data.factors` names them.",
    remedy:
      'Resolve the evidence (ask the partner for the image with a supplement, clear or confirm the hit) and approve once a new assessment no longer has the factor; or reject.',
  },
  riskApprovalSameOperator: {
    cause:
      'The application is routed to enhanced review: an approval needs a second operator, and the operator who asked for it approved again.',
    remedy: 'Ask another reviewer or admin to approve; the pending request shows in the application view.',
  },
  riskAcknowledgementMissing: {
    cause:
      'The application has open high-risk factors (the policy forces `high` or `prohibited` for them, or their weight alone reaches the `high` band) and the approval did not carry a note for each. `data.factors` names those without one.',
    remedy:
      'Send `risk_acknowledgements` with `{code, note}` for each named factor: why you approve despite it (no identity or card number).',
  },
};
