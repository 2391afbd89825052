/**
 * What the operators page holds: only whether it was left (late answers are dropped); the
 * operators are drawn as they arrive.
 */

/**
 * @typedef {{ username: string, role: string, disabled: boolean, created_at: number, updated_at: number, second_factor: 'none' | 'pending' | 'active' }} Operator
 * @typedef {{ username: string, role: string, password: string }} NewOperator
 * @typedef {{ stopped: boolean }} OperatorsState
 */

/** @returns {OperatorsState} */
export const operatorsState = () => ({ stopped: false });
