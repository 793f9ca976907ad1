/** `fetch` answered with real Responses: the network boundary of the content pages. */
export function jsonResponse(body: unknown, init: ResponseInit = {}): Response {
  return new Response(JSON.stringify(body), { headers: { 'Content-Type': 'application/json' }, ...init });
}

type Reply = () => Response | Promise<Response>;

/** Each call answers with the next reply; a Response body can be read once, hence factories. */
export function stubFetch(...replies: Reply[]): jest.Mock<Promise<Response>, [RequestInfo | URL, RequestInit?]> {
  const fetchMock = jest.fn<Promise<Response>, [RequestInfo | URL, RequestInit?]>();
  for (const reply of replies) fetchMock.mockImplementationOnce(async () => reply());
  fetchMock.mockRejectedValue(new Error('fetch called more often than the test expected'));
  globalThis.fetch = fetchMock;
  return fetchMock;
}

/** The warnings a failed load logs are expected in these tests; keep them out of the output. */
export function silenceWarnings(): jest.SpyInstance {
  return jest.spyOn(console, 'warn').mockImplementation(() => undefined);
}
