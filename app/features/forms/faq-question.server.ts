import { data, type ActionFunctionArgs } from '@remix-run/node';
import { handleFaqQuestion, submissionDeps } from './submissions.server';

/**
 * The FAQ page's action (re-exported by app/pages/faq.tsx). A plain HTML form post
 * (JavaScript off) and a Remix <Form> submission get the same answer: the page renders
 * again with the result as its action data.
 */
export async function action({ request }: ActionFunctionArgs) {
  if (request.method !== 'POST') throw data(null, { status: 405 });
  const url = new URL(request.url);
  let form: FormData;
  try {
    form = await request.formData();
  } catch {
    throw data(null, { status: 400 });
  }
  const result = await handleFaqQuestion(form, { page: url.pathname }, submissionDeps());
  if (result.status === 'submitted') return data(result);
  const { httpStatus, ...body } = result;
  return data(body, { status: httpStatus });
}

export type FaqActionData = Awaited<ReturnType<typeof action>>['data'];
