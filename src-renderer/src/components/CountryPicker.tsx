import { useEffect, useId, useRef, useState, type KeyboardEvent } from 'react';
import { countryByCode, countryLabel, findCountries, resolveCountry } from './countrySearch';

/**
 * Every country field of the app (decisions.md, "A country is chosen, never guessed"): an ARIA
 * combobox that finds a country by its code or its English or Danish name and gives the form only a
 * code the user saw in the list and chose. Text that names no single country stays in the field,
 * marked with a message, and `holdsUnchosenCountry` keeps the form from saving. Put it in a Field,
 * like any other control: the Field's id, aria-invalid and aria-describedby land on the input.
 */

/** What `Field` hands its control. */
interface FieldWiring {
  id?: string;
  'aria-invalid'?: boolean;
  'aria-describedby'?: string;
}

interface ControlProps extends FieldWiring {
  /** The form path, so a failed save can find and focus the field. */
  name?: string;
  disabled?: boolean;
  placeholder?: string;
}

/** One country: `value` is a code from `countryCodes`, or '' for none. */
export function CountryPicker({ value, onChange, ...control }: ControlProps & { value: string; onChange: (code: string) => void }) {
  const known = value === '' || countryByCode(value) !== undefined;
  return (
    <CountryCombobox
      {...control}
      shown={known && value ? countryLabel(value) : ''}
      // A stored code outside the list (an old import) is shown as text to be chosen again.
      initialText={known ? null : value}
      onPick={onChange}
      onEmptied={() => onChange('')}
    />
  );
}

/**
 * Several countries as chips, for a shipping rule's receiving countries. "Every country" stores `*`
 * and replaces the others; choosing a country replaces "Every country".
 */
export function CountriesPicker({ value, onChange, ...control }: ControlProps & { value: readonly string[]; onChange: (codes: string[]) => void }) {
  const add = (code: string) => {
    if (value.includes(code)) return;
    onChange(code === '*' ? ['*'] : [...value.filter((chosen) => chosen !== '*'), code]);
  };
  return (
    <div className="country-chips">
      {value.length > 0 && (
        <ul aria-label="Chosen countries">
          {value.map((code) => (
            <li key={code} className="country-chip">
              <span>{countryLabel(code)}</span>
              <button
                type="button"
                className="icon-button"
                disabled={control.disabled}
                aria-label={`Remove ${countryLabel(code)}`}
                onClick={() => onChange(value.filter((chosen) => chosen !== code))}
              >
                ×
              </button>
            </li>
          ))}
        </ul>
      )}
      <CountryCombobox {...control} shown="" initialText={null} everyCountry onPick={add} />
    </div>
  );
}

/**
 * True when a country field in `form` holds typed text no country was chosen for. Each such field
 * shows its message and the first one gets the focus; the caller does not save.
 */
export function holdsUnchosenCountry(form: HTMLElement | null): boolean {
  const unchosen = [...(form?.querySelectorAll<HTMLInputElement>('input[data-country-picker]') ?? [])].filter((input) => !input.checkValidity());
  unchosen[0]?.focus();
  return unchosen.length > 0;
}

function CountryCombobox({
  shown,
  initialText,
  everyCountry = false,
  onPick,
  onEmptied,
  id,
  name,
  disabled,
  placeholder = 'Type a country or code',
  'aria-invalid': fieldInvalid,
  'aria-describedby': fieldDescribedBy,
}: ControlProps & {
  /** The input's text while nothing is being typed: the chosen country, or '' (chips). */
  shown: string;
  initialText: string | null;
  everyCountry?: boolean;
  onPick: (code: string) => void;
  onEmptied?: () => void;
}) {
  const listId = useId();
  const messageId = useId();
  const input = useRef<HTMLInputElement>(null);
  // null: the field shows `shown`; a string: what is being typed, not yet a choice.
  const [typed, setTyped] = useState<string | null>(initialText);
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(0);
  // The message is shown once the field is left (or a save is tried), not at every keystroke.
  const [told, setTold] = useState(initialText !== null);

  const search = { everyCountry };
  const matches = findCountries(typed ?? '', search);
  const pending = typed !== null && typed.trim() !== '';
  const message = !pending
    ? ''
    : matches.length === 0
      ? `No country is called “${typed.trim()}”. Type a name or a code, such as Denmark or DK.`
      : `“${typed.trim()}” could be ${matches.length === 1 ? countryLabel(matches[0]?.code ?? '') : `${matches.length} countries`}: choose one from the list.`;
  const showMessage = pending && (told || matches.length === 0);
  const listShown = open && matches.length > 0 && !disabled;
  const optionId = (code: string) => `${listId}-${code === '*' ? 'every' : code}`;
  const activeCode = listShown ? matches[Math.min(active, matches.length - 1)]?.code : undefined;

  // The browser's own validity is how a form learns, without knowing this field, that it must not save.
  useEffect(() => input.current?.setCustomValidity(message), [message]);
  useEffect(() => {
    if (activeCode) document.getElementById(optionId(activeCode))?.scrollIntoView({ block: 'nearest' });
  }, [activeCode]);

  const pick = (code: string) => {
    setTyped(null);
    setOpen(false);
    setTold(false);
    onPick(code);
  };

  /** Leaving the field (Tab, a click elsewhere, Enter with the list closed): one country found is taken, else the text stays, marked. */
  const settle = (): boolean => {
    setOpen(false);
    if (!pending) {
      if (typed !== null) setTyped(null);
      return true;
    }
    const code = resolveCountry(typed, search);
    if (code) {
      pick(code);
      return true;
    }
    setTold(true);
    return false;
  };

  const openList = () => {
    const chosenIndex = typed === null && shown ? matches.findIndex((match) => countryLabel(match.code) === shown) : -1;
    setActive(Math.max(chosenIndex, 0));
    setOpen(true);
  };

  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      event.preventDefault();
      if (!listShown) openList();
      else setActive((index) => Math.min(Math.max(index + (event.key === 'ArrowDown' ? 1 : -1), 0), matches.length - 1));
    } else if (event.key === 'Enter') {
      if (activeCode) {
        // Taken from the list. The Enter goes on to the form, where it moves to the next field
        // (shipment form) or is kept from submitting (preventDefault), as a scanner expects.
        event.preventDefault();
        pick(activeCode);
      } else if (pending) {
        event.preventDefault();
        // The text names no one country: stay in the field with its message.
        if (!settle()) event.stopPropagation();
      }
    } else if (event.key === 'Escape') {
      // A first Escape closes the list, a second gives back the country chosen before; neither closes the dialog.
      if (listShown) setOpen(false);
      else if (typed !== null) {
        setTyped(null);
        setTold(false);
      } else return;
      event.preventDefault();
      event.stopPropagation();
    }
  };

  return (
    <div className="country-picker">
      <input
        ref={input}
        id={id}
        name={name}
        type="text"
        role="combobox"
        aria-autocomplete="list"
        aria-expanded={listShown}
        aria-controls={listId}
        aria-activedescendant={activeCode ? optionId(activeCode) : undefined}
        aria-invalid={fieldInvalid || showMessage || undefined}
        aria-describedby={[fieldDescribedBy, showMessage ? messageId : null].filter(Boolean).join(' ') || undefined}
        data-country-picker=""
        autoComplete="off"
        spellCheck={false}
        disabled={disabled}
        placeholder={placeholder}
        value={typed ?? shown}
        onChange={(event) => {
          const text = event.target.value;
          setTold(false);
          if (text === '') {
            setTyped(null);
            setOpen(false);
            onEmptied?.();
            return;
          }
          setTyped(text);
          setActive(0);
          setOpen(true);
        }}
        // A chosen country is replaced by typing, not added to.
        onFocus={(event) => event.currentTarget.select()}
        onBlur={() => void settle()}
        onInvalid={() => setTold(true)}
        onKeyDown={onKeyDown}
        onClick={() => (listShown ? setOpen(false) : openList())}
      />
      <ul
        id={listId}
        role="listbox"
        aria-label="Countries to choose from"
        hidden={!listShown}
        // A click on the list's scroll bar must not take the focus from the input either.
        onMouseDown={(event) => event.preventDefault()}
      >
        {listShown &&
          matches.map((match) => (
            <li
              key={match.code}
              id={optionId(match.code)}
              role="option"
              aria-selected={match.code === activeCode}
              // Keeps the focus in the input, so the blur does not settle the text first.
              onMouseDown={(event) => event.preventDefault()}
              onClick={() => pick(match.code)}
            >
              {countryLabel(match.code)}
              {match.matchedDanish && <span className="muted"> · {match.danish}</span>}
            </li>
          ))}
      </ul>
      {showMessage && (
        <small id={messageId} className="field-error">
          {message}
        </small>
      )}
    </div>
  );
}
