/**
 * The "Translations" Studio tool: every document with English text whose Arabic is empty,
 * grouped by type, each missing field a link that opens the document at that field.
 *
 * TranslationsTool fetches (Studio client, drafts laid over published documents) and refreshes
 * on changes; TranslationsReport only renders, so it is tested without a Studio
 * (schemas/studio-translations.test.ts).
 */
import { Badge, Box, Button, Card, Container, Flex, Heading, Spinner, Stack, Text } from '@sanity/ui';
import { useCallback, useEffect, useRef, useState, type ReactElement } from 'react';
import { pathToString, useClient, useSchema, type Tool } from 'sanity';
import { IntentLink } from 'sanity/router';
import { API_VERSION } from '../schemas/fields';
import {
  fieldTitle,
  groupUntranslated,
  missingLabel,
  TRANSLATABLE_TYPES,
  TRANSLATIONS_QUERY,
  type StudioDocument,
  type TitledSchemaType,
  type UntranslatedGroup,
} from './translations';

export type ReportState =
  | { status: 'loading' }
  | { status: 'error'; message: string }
  | { status: 'ready'; groups: UntranslatedGroup[]; checked: number };

export interface TranslationsReportProps {
  state: ReportState;
  onRefresh?: () => void;
  refreshing?: boolean;
  /** How a missing field is named (its titles in the schema); its readable path without it. */
  fieldLabel?: (type: string, path: string) => string;
}

const byPath = (_type: string, path: string) => path;

/** Presentational: the report for a given state. */
export function TranslationsReport({
  state,
  onRefresh,
  refreshing = false,
  fieldLabel = byPath,
}: TranslationsReportProps): ReactElement {
  const documentCount =
    state.status === 'ready' ? state.groups.reduce((sum, group) => sum + group.documents.length, 0) : 0;
  const fieldCount =
    state.status === 'ready'
      ? state.groups.reduce(
          (sum, group) => sum + group.documents.reduce((inner, document) => inner + document.missing.length, 0),
          0,
        )
      : 0;
  return (
    <Card height="fill" overflow="auto" padding={4} tone="default">
      <Container width={2}>
        <Stack space={5}>
          <Flex align="center" gap={3} wrap="wrap">
            <Box flex={1}>
              <Stack space={3}>
                <Heading as="h1" size={3}>
                  Translations
                </Heading>
                <Text muted size={1}>
                  Documents with English text whose Arabic is empty (drafts included). Choose a field to open the
                  document there.
                </Text>
              </Stack>
            </Box>
            {onRefresh ? (
              <Button
                mode="ghost"
                text={refreshing ? 'Refreshing…' : 'Refresh'}
                onClick={onRefresh}
                disabled={refreshing}
              />
            ) : null}
          </Flex>

          <div role="status" aria-live="polite">
            {state.status === 'loading' ? (
              <Flex align="center" gap={3}>
                <Spinner muted />
                <Text muted>Checking every document…</Text>
              </Flex>
            ) : state.status === 'error' ? (
              <Card padding={3} radius={2} tone="critical" border>
                <Text>Could not load the documents: {state.message}</Text>
              </Card>
            ) : documentCount === 0 ? (
              <Card padding={3} radius={2} tone="positive" border>
                <Text>Everything is translated: {state.checked} documents checked, no Arabic missing.</Text>
              </Card>
            ) : (
              <Text>
                {fieldCount} {fieldCount === 1 ? 'field' : 'fields'} in {documentCount}{' '}
                {documentCount === 1 ? 'document' : 'documents'} need Arabic ({state.checked} documents checked).
              </Text>
            )}
          </div>

          {state.status === 'ready'
            ? state.groups.map((group) => (
                <section key={group.type} aria-labelledby={`translations-${group.type}`}>
                  <Stack space={3}>
                    <Heading as="h2" size={1} id={`translations-${group.type}`}>
                      {group.title} ({group.documents.length})
                    </Heading>
                    <Stack as="ul" space={2} style={{ listStyle: 'none', margin: 0, padding: 0 }}>
                      {group.documents.map((document) => (
                        <Card as="li" key={document.id} padding={3} radius={2} border>
                          <Stack space={3}>
                            <Flex align="center" gap={2} wrap="wrap">
                              <Box flex={1}>
                                <Text weight="semibold">
                                  <span lang="en">{document.title}</span>
                                </Text>
                              </Box>
                              {document.hasDraft ? <Badge tone="caution">Draft</Badge> : null}
                              <Badge tone="caution">{missingLabel(document.missing.length)}</Badge>
                            </Flex>
                            <Flex as="ul" gap={2} wrap="wrap" style={{ listStyle: 'none', margin: 0, padding: 0 }}>
                              {document.missing.map((entry) => {
                                const label = entry.path ? fieldLabel(document.type, entry.path) : '';
                                return (
                                  <li key={entry.path}>
                                    <Text size={1}>
                                      <IntentLink
                                        intent="edit"
                                        params={{
                                          id: document.id,
                                          type: document.type,
                                          path: pathToString(entry.sanityPath),
                                        }}
                                        aria-label={`Open ${document.title} at ${label || 'the field'}`}
                                      >
                                        {label || '(document)'}
                                      </IntentLink>
                                    </Text>
                                  </li>
                                );
                              })}
                            </Flex>
                          </Stack>
                        </Card>
                      ))}
                    </Stack>
                  </Stack>
                </section>
              ))
            : null}
        </Stack>
      </Container>
    </Card>
  );
}

const REFRESH_DELAY_MS = 1500;

/** The tool: fetches with the Studio's client and refreshes when a translatable document changes. */
export function TranslationsTool(): ReactElement {
  const client = useClient({ apiVersion: API_VERSION });
  const schema = useSchema();
  const fieldLabel = useCallback(
    (type: string, path: string) => fieldTitle(schema.get(type) as TitledSchemaType | undefined, path),
    [schema],
  );
  const [state, setState] = useState<ReportState>({ status: 'loading' });
  const [refreshing, setRefreshing] = useState(false);
  const latest = useRef(0);

  const load = useCallback(() => {
    const request = ++latest.current;
    setRefreshing(true);
    client
      .fetch<StudioDocument[]>(TRANSLATIONS_QUERY, { types: TRANSLATABLE_TYPES }, { perspective: 'raw' })
      .then((documents) => {
        if (request !== latest.current) return;
        const checked = new Set(documents.map((document) => document._id.replace(/^drafts\./, ''))).size;
        setState({ status: 'ready', groups: groupUntranslated(documents), checked });
      })
      .catch((error: unknown) => {
        if (request !== latest.current) return;
        setState({ status: 'error', message: error instanceof Error ? error.message : String(error) });
      })
      .finally(() => {
        if (request === latest.current) setRefreshing(false);
      });
  }, [client]);

  useEffect(() => {
    load();
    let timer: ReturnType<typeof setTimeout> | undefined;
    const subscription = client
      .listen(
        TRANSLATIONS_QUERY,
        { types: TRANSLATABLE_TYPES },
        { events: ['mutation'], includeResult: false, visibility: 'query' },
      )
      .subscribe({
        next: () => {
          clearTimeout(timer);
          timer = setTimeout(load, REFRESH_DELAY_MS);
        },
        error: () => undefined, // live refresh is a convenience; the Refresh button still works
      });
    return () => {
      clearTimeout(timer);
      subscription.unsubscribe();
    };
  }, [client, load]);

  return <TranslationsReport state={state} onRefresh={load} refreshing={refreshing} fieldLabel={fieldLabel} />;
}

function TranslateIcon(): ReactElement {
  return (
    <svg width="1em" height="1em" viewBox="0 0 25 25" fill="none" aria-hidden="true">
      <path
        d="M5.5 6.5h8M9.5 4.5v2m2 0c-.5 4-3 7-6 8.5m2-5c1 2 3 3.5 5 4"
        stroke="currentColor"
        strokeWidth={1.2}
        strokeLinecap="round"
      />
      <path
        d="M12.5 20.5l3.5-9 3.5 9m-6-2.5h5"
        stroke="currentColor"
        strokeWidth={1.2}
        strokeLinecap="round"
        strokeLinejoin="round"
      />
    </svg>
  );
}

export const translationsTool: Tool = {
  name: 'translations',
  title: 'Translations',
  icon: TranslateIcon,
  component: TranslationsTool,
};
