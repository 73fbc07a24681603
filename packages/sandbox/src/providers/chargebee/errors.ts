/** An API error in Chargebee's shape: `{ message, type?, api_error_code, param?, error_code, error_msg, error_param?, http_status_code }`. */
export class ChargebeeApiError extends Error {
  constructor(
    readonly status: number,
    readonly apiErrorCode: string,
    message: string,
    readonly param?: string,
    readonly type: 'invalid_request' | 'payment' | 'operation_failed' | null = 'invalid_request',
  ) {
    super(message);
  }

  body(): Record<string, unknown> {
    return {
      message: this.message,
      ...(this.type ? { type: this.type } : {}),
      api_error_code: this.apiErrorCode,
      ...(this.param ? { param: this.param } : {}),
      error_code: this.apiErrorCode,
      error_msg: this.message,
      ...(this.param ? { error_param: this.param } : {}),
      http_status_code: this.status,
    };
  }
}

/** 400 param_wrong_value for one parameter (Chargebee writes `<param> : <problem>`). */
export function invalidParam(param: string, problem: string): ChargebeeApiError {
  return new ChargebeeApiError(400, 'param_wrong_value', `${param} : ${problem}`, param);
}

export function notFound(kind: string, id: string, param = 'id'): ChargebeeApiError {
  return new ChargebeeApiError(404, 'resource_not_found', `${kind} not found for ${param} ${id}`, param);
}

export function invalidState(message: string): ChargebeeApiError {
  return new ChargebeeApiError(400, 'invalid_state_for_request', message);
}

export function authFailed(): ChargebeeApiError {
  return new ChargebeeApiError(401, 'api_authentication_failed', 'Sorry, authentication failed. Invalid api key', undefined, null);
}
