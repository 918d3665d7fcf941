import { useEffect, useRef } from 'react';
import type { PackCue } from './packStore';

/**
 * The beep of a cue (issue 20), told apart by ear without looking up from the box: right is one short
 * high beep, too many two middle beeps, wrong one long low buzz. Web Audio, so no sound files; a
 * browser that refuses to play (no audio device) leaves the cue to the eye and the screen reader.
 */
const patterns: Record<PackCue['tone'], { frequency: number; seconds: number; wave: OscillatorType }[]> = {
  right: [{ frequency: 1320, seconds: 0.08, wave: 'sine' }],
  'too-many': [
    { frequency: 660, seconds: 0.09, wave: 'square' },
    { frequency: 660, seconds: 0.09, wave: 'square' },
  ],
  wrong: [{ frequency: 180, seconds: 0.35, wave: 'sawtooth' }],
  info: [],
};

let context: AudioContext | null = null;

function beep(tone: PackCue['tone']): void {
  const notes = patterns[tone];
  if (!notes.length || typeof AudioContext === 'undefined') return;
  try {
    context ??= new AudioContext();
    // A browser holds a context made before the page was used; the keys of a scan count as use.
    if (context.state === 'suspended') void context.resume();
    let at = context.currentTime;
    for (const note of notes) {
      const oscillator = context.createOscillator();
      const gain = context.createGain();
      oscillator.type = note.wave;
      oscillator.frequency.value = note.frequency;
      gain.gain.value = 0.15;
      oscillator.connect(gain).connect(context.destination);
      oscillator.start(at);
      oscillator.stop(at + note.seconds);
      at += note.seconds + 0.06;
    }
  } catch {
    // No sound here; the colour and the spoken text still tell.
  }
}

/** Plays each new cue once (`seq` tells a second identical cue from the first). */
export function useCueSound(cue: PackCue | null): void {
  const played = useRef(cue?.seq ?? 0);
  useEffect(() => {
    if (!cue || cue.seq === played.current) return;
    played.current = cue.seq;
    beep(cue.tone);
  }, [cue]);
}
