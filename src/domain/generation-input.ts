// The validated request body as the domain reads it: JSON nulls for optional members mean "not sent".
/** The request as the model rules and the submission read it. */
export interface GenerationInput {
  model_slug: string;
  prompt: string;
  params?: Record<string, string>;
  texts?: Record<string, string>;
  refs?: string[];
  ref_slots?: Record<string, string[]>;
  ref_roles?: Record<string, 'first' | 'last'>;
}

export interface ValidatedBody {
  model_slug: string;
  prompt: string;
  params?: Record<string, string> | null;
  texts?: Record<string, string> | null;
  refs?: string[] | null;
  ref_slots?: Record<string, string[]> | null;
  ref_roles?: Record<string, 'first' | 'last'> | null;
}

export function toGenerationInput(body: ValidatedBody): GenerationInput {
  return {
    model_slug: body.model_slug,
    prompt: body.prompt,
    ...(body.params ? { params: body.params } : {}),
    ...(body.texts ? { texts: body.texts } : {}),
    ...(body.refs ? { refs: body.refs } : {}),
    ...(body.ref_slots ? { ref_slots: body.ref_slots } : {}),
    ...(body.ref_roles ? { ref_roles: body.ref_roles } : {}),
  };
}
