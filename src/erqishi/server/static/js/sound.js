// Short tones for what happens at the table, made by the Web Audio API in the page (no
// audio file is fetched: the Content-Security-Policy allows none from elsewhere). Off by
// default; the ⚙ panel turns them on (prefs.js). Nothing is created while they are off.
import { soundOn } from "./prefs.js";

let audio = null;

/** Each sound: notes of [frequency Hz, length s, wave]. */
const TONES = {
  discard: [[523, 0.07, "triangle"]],
  flip: [[784, 0.05, "sine"], [1047, 0.07, "sine"]],
  take: [[440, 0.07, "triangle"], [660, 0.11, "triangle"]],
  turn: [[880, 0.12, "sine"]],
  win: [[523, 0.1, "triangle"], [659, 0.1, "triangle"], [784, 0.2, "triangle"]],
  outranked: [[392, 0.1, "sine"], [311, 0.16, "sine"]],
  on: [[660, 0.08, "sine"]],
};

function context() {
  if (!audio) {
    const AC = window.AudioContext || window.webkitAudioContext;
    if (!AC) return null;
    try {
      audio = new AC();
    } catch {
      return null;
    }
  }
  if (audio.state === "suspended") audio.resume().catch(() => {});
  return audio;
}

/** Play the sound `kind` (a key of TONES) when sounds are on; does nothing otherwise. */
export function playSound(kind) {
  if (!soundOn()) return;
  const notes = TONES[kind];
  const ctx = notes ? context() : null;
  if (!ctx) return;
  let at = ctx.currentTime + 0.01;
  for (const [freq, length, wave] of notes) {
    const osc = ctx.createOscillator();
    const gain = ctx.createGain();
    osc.type = wave;
    osc.frequency.setValueAtTime(freq, at);
    // a soft attack and decay: no click
    gain.gain.setValueAtTime(0.0001, at);
    gain.gain.exponentialRampToValueAtTime(0.15, at + 0.01);
    gain.gain.exponentialRampToValueAtTime(0.0001, at + length);
    osc.connect(gain);
    gain.connect(ctx.destination);
    osc.start(at);
    osc.stop(at + length + 0.02);
    at += length * 0.9;
  }
}
