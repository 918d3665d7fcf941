import { useState } from 'react';
import type { ColumnDef } from '@tanstack/react-table';
import type { ShippingRuleExpanded } from '../../../../src-shared/schemas/shippingRule';
import { Dialog } from '../../components/Dialog';
import { client } from '../../lib/api';
import { useOperation } from '../../lib/useOperation';
import { productName, useProductNames } from '../shipments/productNames';
import { useOrgId } from '../../lib/session';
import { describeCondition } from './conditions';
import { RuleMatchExplainer } from './RuleMatchExplainer';
import { ShippingRuleFields, blankRule, ruleBody, ruleDraftOf, type RuleDraft } from './ShippingRuleForm';
import {
  EditorForm,
  ListError,
  PageHeader,
  ReadOnlyNote,
  SETTINGS_PAGE_SIZE,
  countryName,
  useCanWrite,
  useConfirmTarget,
  useEditor,
  useStartNewFromLink,
  editDeleteColumn,
  SettingsTable,
  DeleteConfirmDialog,
} from './shared';

function countriesSummary(codes: string[]): string {
  if (codes.includes('*')) return 'All countries';
  return codes.length > 4 ? `${codes.slice(0, 4).join(', ')} and ${codes.length - 4} more` : codes.map(countryName).join(', ');
}

export function ShippingRulesScreen() {
  const orgId = useOrgId();
  const canWrite = useCanWrite('shipping_rules');
  const [page, setPage] = useState(1);
  const list = useOperation('shippingRules.list', { params: { orgId }, query: { page, limit: SETTINGS_PAGE_SIZE } });
  // Rules store only the product id; the list shows its name, from the carriers of the rules on screen.
  const ruleCarriers = [...new Set((list.data?.data ?? []).map((rule) => rule.carrierId))].sort().map((id) => ({ id }));
  const productNames = useProductNames(orgId, ruleCarriers);
  const org = useOperation('orgs.get', { params: { id: orgId } });
  const defaultCurrency = org.data?.currency ?? 'DKK';
  const editor = useEditor<RuleDraft>();
  const remove = useConfirmTarget<ShippingRuleExpanded>();
  const editing = list.data?.data.find((rule) => rule.id === editor.key);

  useStartNewFromLink(canWrite, () => editor.start('new', blankRule));
  const edit = (rule: ShippingRuleExpanded) => canWrite && editor.start(rule.id, () => ruleDraftOf(rule));

  const columns: ColumnDef<ShippingRuleExpanded>[] = [
    { id: 'name', header: 'Name', cell: ({ row }) => row.original.name },
    { id: 'carrier', header: 'Carrier', cell: ({ row }) => row.original.carrier.name },
    { id: 'product', header: 'Product', cell: ({ row }) => productName(productNames, row.original.carrierId, row.original.productId) },
    { id: 'countries', header: 'Countries', cell: ({ row }) => countriesSummary(row.original.receivingCountries) },
    {
      id: 'conditions',
      header: 'Conditions',
      cell: ({ row }) => {
        const conditions = row.original.conditions;
        if (conditions.length === 0) return 'None: every order, price 0';
        const first = describeCondition(conditions[0] as (typeof conditions)[number]);
        return conditions.length === 1 ? first : `${first} (+${conditions.length - 1} more)`;
      },
    },
  ];
  if (canWrite) columns.push(editDeleteColumn(edit, remove.ask));

  const save = async (draft: RuleDraft) => {
    const body = ruleBody(draft);
    if (editor.key === 'new') await client.call('shippingRules.create', { params: { orgId }, body });
    else await client.call('shippingRules.update', { params: { orgId, ruleId: editor.key ?? '' }, body });
    editor.finish();
    list.reload();
  };

  return (
    <div className="settings-screen">
      <PageHeader title="Shipping rules">
        {canWrite && (
          <button type="button" className="primary" onClick={() => editor.start('new', blankRule)}>
            New shipping rule
          </button>
        )}
      </PageHeader>
      <p className="lead">
        Rules pick the carrier, product and sender for a shipment from its destination, weight and order total. A carrier chosen by hand always wins.
      </p>
      {!canWrite && <ReadOnlyNote what="shipping rules" />}
      <SettingsTable
        label="Shipping rules"
        columns={columns}
        list={list}
        page={page}
        onPageChange={setPage}
        onOpen={canWrite ? edit : undefined}
        empty="No shipping rules yet. Without rules, every shipment needs its carrier chosen by hand."
      />

      {/* The match only asks (read:shipping_rules), so every role may try it. */}
      <RuleMatchExplainer defaultCurrency={defaultCurrency} rules={list.data} />

      <Dialog title={editor.key === 'new' ? 'New shipping rule' : `Edit ${editing?.name ?? 'shipping rule'}`} open={editor.open} onClose={editor.close} wide>
        {editor.draft && (
          <EditorForm
            onSubmit={() => save(editor.draft as RuleDraft)}
            onCancel={editor.close}
            submitLabel={editor.key === 'new' ? 'Create shipping rule' : 'Save changes'}
          >
            {(errors) => (
              <RuleFormWithChoices
                draft={editor.draft as RuleDraft}
                onChange={editor.setDraft}
                errors={errors}
                ruleId={editor.key === 'new' ? null : editor.key}
                defaultCurrency={defaultCurrency}
              />
            )}
          </EditorForm>
        )}
      </Dialog>

      <DeleteConfirmDialog
        confirm={remove}
        noun="shipping rule"
        consequence="New shipments no longer get it; shipments it was applied to keep their carrier. A rule that sends its returns with it must be changed first."
        remove={(target) => client.call('shippingRules.delete', { params: { orgId, ruleId: target.id } })}
        onDeleted={list.reload}
      />
    </div>
  );
}

/** The choices the rule form offers, loaded when the dialog opens. */
function RuleFormWithChoices(props: {
  draft: RuleDraft;
  onChange: (update: (draft: RuleDraft) => RuleDraft) => void;
  errors: Record<string, string>;
  ruleId: string | null;
  defaultCurrency: string;
}) {
  const orgId = useOrgId();
  const carriers = useOperation('carriers.list', { params: { orgId }, query: { limit: 100 } });
  const addresses = useOperation('senderAddresses.list', { params: { orgId }, query: { limit: 100 } });
  const rules = useOperation('shippingRules.list', { params: { orgId }, query: { limit: 100 } });
  const printers = useOperation('printers.list', { params: { orgId }, query: { limit: 100 } });
  const error = carriers.error ?? addresses.error ?? rules.error;
  const retry = () => {
    carriers.reload();
    addresses.reload();
    rules.reload();
  };
  if (error) return <ListError error={error} onRetry={retry} />;
  // Printing may not be set up on this installation; the rule can still be saved without it (null).
  const printerChoices = printers.data ? printers.data.data : printers.error ? null : undefined;
  if (!carriers.data || !addresses.data || !rules.data || printerChoices === undefined) return <p className="loading">Loading carriers and addresses…</p>;
  const choices = {
    carriers: carriers.data.data,
    addresses: addresses.data.data,
    rules: rules.data.data.map((rule) => ({ id: rule.id, name: rule.name })),
    printers: printerChoices,
    defaultCurrency: props.defaultCurrency,
  };
  return <ShippingRuleFields {...props} choices={choices} />;
}
