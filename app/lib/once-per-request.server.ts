/**
 * `read`, run at most once per request: the layout, the loaders and the response headers may all
 * ask about the same request (its preview session, its signed-in client), and the signed cookie is
 * verified once. The answers are held weakly, so they go with the request.
 */
export function oncePerRequest<T>(read: (request: Request) => Promise<T>): (request: Request) => Promise<T> {
  const answers = new WeakMap<Request, Promise<T>>();
  return (request) => {
    let answer = answers.get(request);
    if (!answer) {
      answer = read(request);
      answers.set(request, answer);
    }
    return answer;
  };
}
