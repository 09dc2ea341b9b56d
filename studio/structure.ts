/** The Studio's side menu, grouped for marketing staff (see desk.ts). */
import type { ListItemBuilder, StructureBuilder, StructureResolver } from 'sanity/structure';
import { DESK_GROUPS, LIST_ORDERING, type DeskItem } from './desk';

function itemFor(S: StructureBuilder, item: DeskItem): ListItemBuilder {
  if (item.singleton) {
    return S.listItem()
      .id(item.type)
      .title(item.title)
      .schemaType(item.type)
      .child(S.document().schemaType(item.type).documentId(item.type).title(item.title));
  }
  const ordering = LIST_ORDERING[item.type] ?? [{ field: 'order', direction: 'asc' as const }];
  const list = S.documentTypeList(item.type).title(item.title).defaultOrdering(ordering);
  return S.listItem().id(item.type).title(item.title).schemaType(item.type).child(list);
}

export const structure: StructureResolver = (S) =>
  S.list()
    .title('Content')
    .items(
      DESK_GROUPS.map((group) =>
        group.items.length === 1
          ? itemFor(S, group.items[0]).title(group.title)
          : S.listItem()
              .id(group.id)
              .title(group.title)
              .child(
                S.list()
                  .id(group.id)
                  .title(group.title)
                  .items(group.items.map((item) => itemFor(S, item))),
              ),
      ),
    );
