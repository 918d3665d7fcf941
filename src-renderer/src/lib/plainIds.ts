/**
 * Server messages name things by id (`Shipment shp_01j… is cancelled`, `(print job pjb_01j…)`), which
 * is right for a script and meaningless at a packing station (issue 20). These turn the ids a screen
 * can name into the names the user sees there, and the rest into plain words, never an id.
 */

/** What a screen knows to name ids with: shipments by reference, print jobs by their document and shipment. */
export interface IdNames {
  /** Shipment id → reference. */
  shipments?: ReadonlyMap<string, string>;
  /** Print job id → "label 2 of SHP-000123". */
  printJobs?: ReadonlyMap<string, string>;
}

/** An id, with up to two words before it ("shipping rule rul_…") and a name after it in brackets ("(Havn parcels)"). */
const kinds = 'shp|pjb|doc|prn|rul|car|adr|ord|chn|oln|prc|pol|usr|tok|whk|org';
const idPattern = new RegExp(`((?:\\b[A-Za-z]+ ){0,2})\\b(${kinds})_[0-9a-z]{6,}\\b(?: \\(([^()]{1,200})\\))?`, 'g');

/** What an id of each kind is called when there is no name for it. */
const unnamed: Record<string, string> = {
  shp: 'this shipment',
  pjb: 'a print job',
  doc: 'a document',
  prn: 'a printer',
  rul: 'a shipping rule',
  car: 'a carrier',
  adr: 'a sender address',
  ord: 'an order',
  chn: 'an order channel',
  oln: 'an order line',
  prc: 'a parcel',
  pol: 'an order line',
  usr: 'a user',
  tok: 'an API token',
  whk: 'a webhook',
  org: 'this organization',
};

/** "and"-joined: "label 1 of SHP-1 and label 2 of SHP-1". */
function joined(names: readonly string[]): string {
  return names.length <= 1 ? (names[0] ?? '') : `${names.slice(0, -1).join(', ')} and ${names.at(-1)}`;
}

export function withoutIds(message: string, names: IdNames = {}): string {
  // "print job pjb_1", "print jobs pjb_1, pjb_2": the jobs by what they print.
  const jobs = message.replace(/\b(print jobs?) ((?:pjb_[0-9a-z]+)(?:, pjb_[0-9a-z]+)*)/gi, (whole, words: string, ids: string) => {
    const list = ids.split(', ').map((id) => names.printJobs?.get(id));
    if (list.some((name) => name === undefined)) return words.toLowerCase().endsWith('s') ? 'its print jobs' : 'its print job';
    return `${words} for ${joined(list as string[])}`;
  });
  // "shipping rule Havn parcels (rul_1)": the name is there; the id in brackets goes.
  const bracketed = new RegExp(` \\((?:${kinds})_[0-9a-z]{6,}\\)`, 'g');
  return jobs.replace(bracketed, '').replace(idPattern, (match: string, lead: string, kind: string, shown: string | undefined) => {
    // "shipping rule rul_1 (Havn parcels)": the message names it already.
    if (shown) return `${lead}${shown}`;
    const name = kind === 'shp' ? names.shipments?.get(match.slice(lead.length)) : undefined;
    if (name) return lead + name;
    // "Shipment shp_1 does not exist" → "This shipment does not exist"; elsewhere "a printer", "an order".
    const noun = nounOf[kind] ? new RegExp(`(^|\\s)(${nounOf[kind]}) $`, 'i').exec(lead) : null;
    if (noun) {
      const said = noun[2] as string;
      return `${lead.slice(0, noun.index + (noun[1] ?? '').length)}${said[0] === said[0]?.toUpperCase() ? 'This' : 'this'} ${said.toLowerCase()}`;
    }
    return lead + (unnamed[kind] ?? 'it');
  });
}

/** The word a message puts before an id of the kind ("Shipment shp_…", "printer prn_…"). */
const nounOf: Record<string, string> = {
  shp: 'shipment',
  doc: 'document',
  prn: 'printer',
  rul: 'shipping rule|rule',
  car: 'carrier',
  ord: 'order',
  adr: 'sender address|address',
};
