// Server settings that change the bytes of the formats this client decodes (RowBinaryWithNamesAndTypes,
// Native) or encodes (Native insert blocks), and what the client does about each one.
//
// Invariant: the settings a call is sent with (client-level and per-call, merged) are looked at once,
// when the call's decoder or encoder is chosen, never per value. A setting that changes those bytes is
// either decoded accordingly (the decoder is told, as the bytes alone cannot say) or refused by name
// with a ChwireConfigError before anything is sent. A setting of these families that this table does
// not know (a newer server's) is refused too: the client cannot know how it changes the bytes.
// test/wire-settings.engine.test.ts holds the table against the engine's own list of settings.
import { ChwireConfigError } from '../../errors.js';

/** What the client does with a setting: `read`: decodes what it produces; `inert`: the setting does not change the bytes; `refused`: refused where it applies. */
export type WireSettingEffect = 'read' | 'inert' | 'refused';

export interface WireSetting {
  readonly effect: WireSettingEffect;
  /** Where the setting acts: reading RowBinary, reading Native, or the Native blocks of an insert. */
  readonly on: 'RowBinary' | 'Native' | 'insert' | 'none';
  /** Why, in words (used in refusals and the docs). */
  readonly why: string;
}

/**
 * Every `output_format_native_*`, `output_format_binary_*`, `input_format_native_*`,
 * `input_format_binary_*` and `format_binary_*` setting of the 26.7 engine, plus the other settings
 * that change Native or RowBinary bytes.
 */
export const WIRE_SETTINGS: Readonly<Record<string, WireSetting>> = Object.freeze({
  output_format_binary_encode_types_in_binary_format: { effect: 'read', on: 'RowBinary', why: 'header types are read in the binary type encoding' },
  output_format_binary_write_json_as_string: { effect: 'read', on: 'RowBinary', why: 'JSON values are returned as their JSON text (a string)' },
  output_format_native_encode_types_in_binary_format: { effect: 'read', on: 'Native', why: 'header types are read in the binary type encoding (the client asks for it itself on 24.7+)' },
  output_format_native_write_json_as_string: { effect: 'read', on: 'Native', why: 'JSON columns sent as text are parsed with JSON.parse' },
  output_format_native_use_flattened_dynamic_and_json_serialization: { effect: 'read', on: 'Native', why: 'the flattened Dynamic and JSON serialization is read' },
  input_format_native_decode_types_in_binary_format: {
    effect: 'refused', on: 'insert',
    why: 'it makes the server read the types of a Native insert block in the binary type encoding, and chwire writes them as type names (the server would misread them)',
  },
  input_format_native_allow_types_conversion: { effect: 'inert', on: 'none', why: 'chwire writes each column in the table\'s own type (it sets 0 itself, so the server verifies that)' },
  input_format_binary_decode_types_in_binary_format: { effect: 'inert', on: 'none', why: 'RowBinary input only: chwire inserts Native' },
  input_format_binary_read_json_as_string: { effect: 'inert', on: 'none', why: 'RowBinary input only: chwire inserts Native' },
  input_format_binary_max_type_complexity: { effect: 'inert', on: 'none', why: 'a limit on binary type encodings the server reads' },
  format_binary_max_array_size: { effect: 'inert', on: 'none', why: 'a limit on RowBinary input' },
  format_binary_max_object_size: { effect: 'inert', on: 'none', why: 'a limit on RowBinary input' },
  format_binary_max_string_size: { effect: 'inert', on: 'none', why: 'a limit on RowBinary input' },
  low_cardinality_allow_in_native_format: { effect: 'inert', on: 'none', why: 'at 0 the Native header names the converted (non-LowCardinality) type, which is read as such' },
  allow_special_serialization_kinds_in_output_formats: { effect: 'inert', on: 'none', why: 'HTTP Native output is written without special serializations (no client protocol version is sent)' },
});

/** The families of settings whose members all change, or may change, these bytes. */
const FAMILY = /^(?:output_format_(?:native|binary)_|input_format_native_)/;

/** How the decoder must read a body sent with these settings. */
export interface WireRead {
  /** Header types in the binary type encoding. */
  readonly binaryTypes: boolean;
  /** RowBinary only: JSON values sent as String text. */
  readonly jsonAsString: boolean;
  /**
   * The call's `session_timezone`, where set: the zone the server prints zone-less DateTime and
   * DateTime64 in, so `datetime: 'text'` and Map keys use it too (the decoder's sessionTimezone).
   */
  readonly zone: string | undefined;
}

/** Flags of a body no setting changes (a raw format, a statement). */
export const NO_WIRE_FLAGS: WireRead = Object.freeze({ binaryTypes: false, jsonAsString: false, zone: undefined });

const OWN = Object.prototype.hasOwnProperty;

function known(name: string): WireSetting | undefined {
  return OWN.call(WIRE_SETTINGS, name) ? WIRE_SETTINGS[name] : undefined;
}

/** A Bool setting's value as the server reads it; text it may read otherwise is refused. */
function boolSetting(name: string, value: string): boolean {
  const v = value.trim().toLowerCase();
  if (v === '1' || v === 'true') return true;
  if (v === '0' || v === 'false' || v === '') return false;
  throw new ChwireConfigError(`setting ${name} must be 0 or 1 (got ${JSON.stringify(value)}): it changes the bytes chwire decodes, so chwire must know its value`);
}

function refuseUnknown(settings: Readonly<Record<string, string>>): void {
  for (const name of Object.keys(settings)) {
    if (FAMILY.test(name) && known(name) === undefined) {
      throw new ChwireConfigError(`setting ${name} is not known to chwire: settings of this family change the Native/RowBinary bytes it decodes or encodes, and it cannot tell how this one does; leave it unset`);
    }
  }
}

/** The decoder flags for a body in `format` sent with `settings` (the final, merged ones); refuses what it cannot read. */
export function wireRead(format: 'RowBinaryWithNamesAndTypes' | 'Native', settings: Readonly<Record<string, string>>): WireRead {
  refuseUnknown(settings);
  const flag = (name: string): boolean => {
    const v = settings[name];
    return v !== undefined && boolSetting(name, v);
  };
  const z = settings['session_timezone'];
  const zone = z !== undefined && z !== '' ? z : undefined;
  if (format === 'Native') {
    // The other Native output settings are self-describing in the body (native.md).
    flag('output_format_native_write_json_as_string');
    flag('output_format_native_use_flattened_dynamic_and_json_serialization');
    return { binaryTypes: flag('output_format_native_encode_types_in_binary_format'), jsonAsString: false, zone };
  }
  return {
    binaryTypes: flag('output_format_binary_encode_types_in_binary_format'),
    jsonAsString: flag('output_format_binary_write_json_as_string'),
    zone,
  };
}

/** Refuses, before an insert sends anything, a setting that changes how the server reads the client's Native blocks. */
export function checkInsertSettings(settings: Readonly<Record<string, string>>): void {
  refuseUnknown(settings);
  for (const [name, s] of Object.entries(WIRE_SETTINGS)) {
    if (s.effect !== 'refused' || s.on !== 'insert') continue;
    const v = settings[name];
    if (v !== undefined && boolSetting(name, v)) throw new ChwireConfigError(`setting ${name}=1 is refused on insert: ${s.why}; leave it unset or 0`);
  }
}
