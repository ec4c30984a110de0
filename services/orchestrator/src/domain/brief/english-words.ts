/**
 * English words one or two letters away from the stylist's vocabulary, which the spelling
 * correction (normalize.ts) must never turn into it: "surfing" is not "spring", "times" not
 * "ties", "kits" not "kilts", "a capsule wardrobe" no cagoule, "overcast" no overcoat. Taken from
 * a standard English word list: every word the correction changed other than into its own plural
 * or singular ("weddings" is still a wedding), less a few a family would mean as the vocabulary
 * word ("leggins", "cheapest", "wintery") and those dictation writes for it ("beech", "heals",
 * "shoos"); "flat", "kick", "runner", "slack", "overall", "slide",
 * "pump" and "thermal" are kept as said too (a flat, a kick, a runner are no shoes; a "thermal
 * vest" is one item, not thermals and a vest). When the vocabulary grows,
 * `scripts/stylist-spelling-check.ts` lists the words the correction would newly change.
 */
export const ENGLISH_WORDS = new Set(
  `
  bars brash brats brays
  gargles giggled giggles gobbles gurgles
  thermal vets snoop snooped snoops snoozed snoozes stood tacking talking tanking tanning tasking thanking
  abort abound abounds abridge abridges actuality actuary aground annually aroused astound autumnal
  backpacked backspace backtrack backtracks bandies bangs bathroom bathrooms beached beaches beadier
  beadiest beagles beakers beaning bearers beaters beats beauties beavers  beets belch bellies
  bellow bellows bells bemuses bents berries besiege bests bets biking blacked blacken blacker
  blackjack blackjacks bladder bladders blamer blander blanker blaster blaze blazed blazes bleach
  bleaker blesses blondes bloodies blots bloused blued bluer blushed blushes boats bode boded bodes
  bolts bombard bombed bonuses booking books booms boons boors boos boost boosts booths booting
  bootleg bootlegs booty bottles bounties bouts braced bracket brackets brags braises brakes
  branches brandies brasses braves bravest brawn brazens brazier braziers breach breaches broaches
  broaden brow browned browner brownie brows browses budge budged budges budgeted bunnies bureaux
  buzzers cabbing cabling caching cajoles calking calling calming cameo campaign camps canning capes
  capping capsule capsules caramel carbons cardiac cardinal cardinals carding cards cargoes carouse
  carouses carping carps carrots carting cartons carving cashing casinos casting casually casualty
  causal causing champing championed chap chapping chaps chapter charges chats cheapen cheapens
  cheat cheated checker cheep cheeped chewier chinks chins chipper chopper choral chorals christens
  clamming clamping clapping claps clasping cleaner clearer cleaver clotted clumping clutched coals
  coastal coasts colts combats combing condense confers conserve consume consumes convene convenes
  converge converged converges conversed conversely convert converted converter converts conveys
  convulse cooping copping cordial corral corrals costumed cots cram cramming cramping creak creamed
  crimsoned croci crock crocks crocus crops crossbow crossbows crows crutch cumming cupping denials
  denies depress depresses digress digresses dollies dredges dregs dressers dressier dressiest dross
  drowses dryness duress emerged excepted excerpt excerpts fats feats federal feeding feeling flags
  flaps flat flaunts flaws fleeced fleecier fleeciest fleecing fleeing fleeted fleeter fleetest
  fleeting fleshes flits floats foraged forages foreman forfeit forged forger forgers forgery forges
  forgoes forgot formally format formats forswear forwent freaking freeing freezes fretting gilt
  globes glories glosses gloved glowers gradation gradations greened greener grooves grovels groves
  hacking hailing halts handing harking harts hawking  heats heeds hiding hinging hinting
  hipping hiring hissing hitting hiving hobbies hocking holidayed hollies holster honking hooding
  hooking hoorays hulking husking insteps interviewed interviewer jack jackals jackass jacked
  jackpots jacks jamming jockeys jogged jolts jots juggler jugglers jumped jumpier juniper junipers
  junkets kick kills kilns kilos kinks kits lagging largely largest launder leaders leafier leopard
  leopards levies loader loafed lockers lodgers lodgings logging loiters longings loyaler lugging
  mange mangy mantels marooned matts mints mists mites modicum moistens mustang mustered musters
  mutters mutts naughty neckline necklines netting niceties nightly nights nighttime nineties
  nodding noising notching noticing noting nuder nudge nutting officer officers orifice outlive
  overall overcast overcasts overcome overcomes overeat overeats overhauls overheat overheats
  overlaps overlays overload overloads pacts panes pangs pans panties panty papayas paprika parity
  parkway parkways parse partly pasts pasty patents pats patty peacock peanuts pedants pentagon
  perplex pinches pints planets plume plumps poach poaches polio polios polls ponds pools porches
  pouches pounces pounded preach primary primate primers proffer prologs puff puffed puffier puffs
  puffy pulps pulse pumas pump punches punts pups puree purge purpler purplest purpose pursed pursue
  pursued pursues pushover pushovers rangers ranging ranking ranting reining renders rending renting
  ringing rinsing robbers robed robs roes roles romped roomier ropes roses rounding rubbers rubbing
  rudders ruffing ruining runner runnier rushing rusting ruts rutting sacks sades sager sandbag
  sandbags sandman sapling sapping savings sayings scandal scandals scar scarcer scarcest scares
  scarfed scarier scariest scaring scarred scars scepter scepters schoolboy schooled schooling
  scoring scrapes scribes scruffs scummed searing seats sedater seething seizing serving setters
  shackle shackled shackles shacks shaded shadier shadiest shadows shakes shames shapes shares
  sharing sharked shavers shaves sheaths sheaves sheen sheik shelter shelters shies shimmer shimmers
  shining shipped shire shirk shirks shirted shivers shocked shocks shoed shoeing shone  shoots
  shoppers shops shores shoring shorted shorten shortens shortest shortly shouts shove shovels
  shoves shrubs shucked sicker sicks sides sillier silvered simmer simmers sipping siring sits sizer
  skein sketches skewers skewing skidding skimming skimping skinning skipped skipper skippers
  skipping skirted skirting skit skits skying slack slacked slacken slackens slacker slackest
  slanders slapped sleeker sleepers slices slicing slicked slickest slicks slide sliding slimier
  slinked slippery slither slithers slits slitter sliver slivers slopped sloppier sluices slumber
  slummed slummer smacked smacks smidges smiling smiting smock smocks smoothing snacked snacks
  snaring snarled sneaked sneakier snicker snidest snipers sniping snipped snippet snippets snooker
  snoring snorts soaks soaring sockets soiling solaces solders soldiers solider solidest soothing
  sopping sorting sorts souring spaceship spaceships spacing spades spading sparing sparking
  sparring spaying speaker speakers spearing specter specters spewing spicier spicing spiders
  spiking spiting spits splices sporting sprains sprang spraying spreeing sprig springy sprint
  sprints sprucing sprung spurning spurring spurting spying squints squirts stacked stacks stall
  stammer stammers staring starved starves sticker stickers stickier stickler stiller stoppers
  storing strides string strings stringy stripper submits sucks suites suiting suitors sulkies
  summary summed summered summits sundaes sundial sundials sundries sunnier sunniest sunning sunrise
  sunrises sunsets suppers suppress suppresses surfing surging surrenders suspended suspends swats
  swears sweaty sweeper sweepers sweeten sweetens sweeter sweets sweller swerves swifter swiping
  syringe tackier tackiest tackles tangent targeted tartest teems thirsts tides tiers tighten
  tightens tightest tightly tiles times tires toddle toddled toddles tomes torque toted totem totems
  tots totters tracked tracking traders trailed trailer trailers trainees traitor traitors trapper
  trappers trawler trawlers trenched trickier trickiest trickles troopers troupes udder undergo
  vacating vacationed vanes variation vasts vents vertigo vestige vestiges vesting vets vexation
  violate violent vocation vocations wadding waddling warding washout wealthier weaning wearier
  wearies weathered weaving webbing wedging weeding weeklies weeping welding welling welting wetting
  whine whiten whitens whiter whitest whittle wielding wince windier winding wined wingers wintered
  wintrier wittier wooding woolies woollies wording wreathe wreathed wreathes wringer yellowed
  yellower
  hijacks
  `
    .split(/\s+/)
    .filter(Boolean),
);
