import { useEffect, useId, useRef, useState } from 'react';
import { ChevronDown } from 'lucide-react';
import { PERMISSION_CATALOGUE, PERMISSION_PRESETS, type Permission } from '../../domain/permissions';

// The permission catalogue (domain/permissions.ts) as a form control ('Request Additional
// Permissions'): ready-made choices first (View only, Help with medicines, Full help: each ticks its
// boxes, which stay open to change), then one expandable section per resource, a tri-state checkbox per
// section, and a checkbox per permission. Under each permission's name is what it lets the caregiver do, in
// one plain sentence; the catalogue's short description is its tooltip where there is hover. Both are the
// checkbox's accessible description.

type Props = {
  value: readonly Permission[];
  onChange: (next: Permission[]) => void;
  /** Already granted: shown checked and disabled, never part of `onChange`'s answer. */
  locked?: readonly Permission[];
  legend: string;
  /** Prefix of the ids inside (two pickers on one page need different ones); a generated one otherwise. */
  idPrefix?: string;
};

type Group = (typeof PERMISSION_CATALOGUE)[number];

/** Catalogue order, so what is sent and shown does not depend on the order of the clicks. */
function inCatalogueOrder(values: ReadonlySet<Permission>): Permission[] {
  return PERMISSION_CATALOGUE.flatMap((group) =>
    group.permissions.map((permission) => permission.value),
  ).filter((permission) => values.has(permission));
}

export function PermissionPicker({ value, onChange, locked = [], legend, idPrefix }: Props) {
  const generated = useId();
  const prefix = idPrefix ?? `permissions${generated.replace(/[^A-Za-z0-9_-]/g, '')}`;
  const lockedSet = new Set(locked);
  const chosen = new Set(value.filter((permission) => !lockedSet.has(permission)));
  const change = (next: Set<Permission>) => onChange(inCatalogueOrder(next));
  const held = new Set([...chosen, ...lockedSet]);
  return (
    <fieldset className="min-w-0">
      <legend className="mb-2 text-heading text-text">{legend}</legend>
      <div role="group" aria-label="Ready-made choices" className="mb-3 grid gap-2 sm:grid-cols-3">
        {PERMISSION_PRESETS.map((preset) => {
          const exact =
            preset.permissions.length === held.size &&
            preset.permissions.every((permission) => held.has(permission));
          return (
            <button
              key={preset.name}
              type="button"
              aria-pressed={exact}
              onClick={() =>
                change(new Set(preset.permissions.filter((permission) => !lockedSet.has(permission))))
              }
              className={`flex min-h-11 min-w-0 flex-col items-start rounded-control border px-3 py-2 text-left focus:outline-none focus-visible:ring-2 focus-visible:ring-focus ${
                exact
                  ? 'border-primary bg-primary-soft'
                  : 'border-border-strong bg-surface hover:bg-surface-muted'
              }`}
            >
              <span className="font-semibold text-text">{preset.name}</span>
              <span className="text-small text-muted">{preset.means}</span>
            </button>
          );
        })}
      </div>
      <div className="divide-y divide-border rounded-card ring-1 ring-border">
        {PERMISSION_CATALOGUE.map((group) => (
          <PermissionGroup
            key={group.resource}
            group={group}
            id={`${prefix}-${group.resource.replace(/\s+/g, '-').toLowerCase()}`}
            chosen={chosen}
            locked={lockedSet}
            onChange={change}
          />
        ))}
      </div>
    </fieldset>
  );
}

function PermissionGroup(props: {
  group: Group;
  id: string;
  chosen: ReadonlySet<Permission>;
  locked: ReadonlySet<Permission>;
  onChange: (next: Set<Permission>) => void;
}) {
  const { group, id, chosen, locked } = props;
  const [open, setOpen] = useState(false);
  const values: Permission[] = group.permissions.map((permission) => permission.value);
  const free = values.filter((permission) => !locked.has(permission));
  const held = values.filter((permission) => locked.has(permission) || chosen.has(permission)).length;
  const state = held === values.length ? 'checked' : held === 0 ? 'unchecked' : 'mixed';
  const allFreeChosen = free.every((permission) => chosen.has(permission));
  const toggleAll = () => {
    const next = new Set(chosen);
    for (const permission of free) {
      if (allFreeChosen) next.delete(permission);
      else next.add(permission);
    }
    props.onChange(next);
  };
  const toggleOne = (permission: Permission) => {
    const next = new Set(chosen);
    if (next.has(permission)) next.delete(permission);
    else next.add(permission);
    props.onChange(next);
  };
  return (
    <div className="min-w-0">
      <div className="flex min-w-0 items-center gap-1 pr-1">
        <GroupCheckbox
          state={state}
          disabled={free.length === 0}
          label={`All ${group.resource} permissions`}
          onToggle={toggleAll}
        />
        <button
          type="button"
          aria-expanded={open}
          aria-controls={`${id}-panel`}
          onClick={() => setOpen((value) => !value)}
          className="flex min-h-11 min-w-0 flex-1 items-center justify-between gap-2 rounded-control px-2 py-2 text-left font-semibold text-text hover:bg-surface-muted focus:outline-none focus-visible:ring-2 focus-visible:ring-focus"
        >
          <span className="min-w-0 truncate">{group.resource}</span>
          <span className="flex shrink-0 items-center gap-1 text-small font-normal text-muted">
            {held} of {values.length}
            <ChevronDown
              aria-hidden="true"
              className={`h-5 w-5 transition-transform ${open ? 'rotate-180' : ''}`}
            />
          </span>
        </button>
      </div>
      <ul id={`${id}-panel`} hidden={!open} className="space-y-1 px-2 pb-3 sm:pl-12">
        {group.permissions.map((permission) => (
          <PermissionItem
            key={permission.value}
            id={`${id}-${permission.value}`}
            label={permission.label}
            description={permission.description}
            does={permission.does}
            checked={locked.has(permission.value) || chosen.has(permission.value)}
            locked={locked.has(permission.value)}
            onToggle={() => toggleOne(permission.value)}
          />
        ))}
      </ul>
    </div>
  );
}

/** The section's checkbox: checked, unchecked, or mixed (the DOM's `indeterminate`, which no attribute sets). */
function GroupCheckbox(props: {
  state: 'checked' | 'unchecked' | 'mixed';
  disabled: boolean;
  label: string;
  onToggle: () => void;
}) {
  const ref = useRef<HTMLInputElement>(null);
  useEffect(() => {
    if (ref.current) ref.current.indeterminate = props.state === 'mixed';
  }, [props.state]);
  return (
    <label className="flex min-h-11 min-w-11 shrink-0 cursor-pointer items-center justify-center has-disabled:cursor-default">
      <input
        ref={ref}
        type="checkbox"
        className="h-5 w-5 accent-primary"
        checked={props.state === 'checked'}
        aria-checked={props.state === 'mixed' ? 'mixed' : props.state === 'checked'}
        disabled={props.disabled}
        onChange={props.onToggle}
      />
      <span className="sr-only">{props.label}</span>
    </label>
  );
}

function PermissionItem(props: {
  id: string;
  label: string;
  description: string;
  does: string;
  checked: boolean;
  locked: boolean;
  onToggle: () => void;
}) {
  const descriptionId = `${props.id}-description`;
  const doesId = `${props.id}-does`;
  return (
    <li className="group relative rounded-control hover:bg-surface-muted">
      <label
        htmlFor={props.id}
        className="flex min-h-11 cursor-pointer items-center gap-3 px-2 pt-2 has-disabled:cursor-default"
      >
        <input
          id={props.id}
          type="checkbox"
          className="h-5 w-5 shrink-0 accent-primary"
          checked={props.checked}
          disabled={props.locked}
          aria-describedby={`${doesId} ${descriptionId}`}
          onChange={props.onToggle}
        />
        <span className="min-w-0 text-text">
          {props.label}
          {props.locked ? (
            <>
              {' '}
              <span className="text-small text-muted">(granted)</span>
            </>
          ) : null}
        </span>
      </label>
      <span id={doesId} className="block pr-2 pb-2 pl-10 text-small text-text">
        {props.does}
      </span>
      {/* A tooltip on hover or focus; where there is no hover (phones) the sentence above says it. */}
      <span
        id={descriptionId}
        role="tooltip"
        className="block pr-2 pb-2 pl-10 text-small text-muted [@media(hover:none)]:hidden [@media(hover:hover)]:pointer-events-none [@media(hover:hover)]:invisible [@media(hover:hover)]:absolute [@media(hover:hover)]:top-full [@media(hover:hover)]:left-10 [@media(hover:hover)]:z-10 [@media(hover:hover)]:-mt-1 [@media(hover:hover)]:w-max [@media(hover:hover)]:max-w-[calc(100%-3rem)] [@media(hover:hover)]:rounded-control [@media(hover:hover)]:bg-surface [@media(hover:hover)]:px-3 [@media(hover:hover)]:py-2 [@media(hover:hover)]:text-text [@media(hover:hover)]:shadow-overlay [@media(hover:hover)]:ring-1 [@media(hover:hover)]:ring-border [@media(hover:hover)]:group-focus-within:visible [@media(hover:hover)]:group-hover:visible"
      >
        {props.description}
      </span>
    </li>
  );
}

export { permissionsByResource, PermissionSummary } from './permission-summary';
