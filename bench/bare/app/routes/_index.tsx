import type { MetaFunction } from '@remix-run/node';
import { useLoaderData } from '@remix-run/react';

export const meta: MetaFunction = () => [
  { title: 'Records' },
  { name: 'description', content: 'Forty short records.' },
];

export async function loader() {
  return Array.from({ length: 40 }, (_, i) => ({
    id: i + 1,
    title: `Record ${i + 1}`,
    summary: `A short summary of record number ${i + 1}, written for the benchmark.`,
  }));
}

export default function Index() {
  const records = useLoaderData<typeof loader>();
  return (
    <main>
      <h1>Records</h1>
      <ul>
        {records.map((r) => (
          <li key={r.id}>
            <h2>{r.title}</h2>
            <p>{r.summary}</p>
          </li>
        ))}
      </ul>
    </main>
  );
}
