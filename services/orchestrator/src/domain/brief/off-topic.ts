/**
 * Requests outside clothing that a shopping stylist declines: homework, recipes, the weather
 * forecast, jokes and stories, medical, legal and money questions, coding and computers, trivia
 * and the news, and questions about the service itself ("how does this work", "who are you"). Such a subject only makes a message off-topic when the message says nothing
 * about clothes (see `CLOTHING_TALK` and the reading's constraints): "a jacket for the
 * weather", "a costume for the school play" and "shoes for my maths teacher's wedding" are
 * shopping.
 */
export const OFF_TOPIC_SUBJECT = new RegExp(
  [
    // School work
    String.raw`\b(?:home ?work|assignments?|essays?|maths?|algebra|geometry|equations?|fractions|physics|chemistry|biology|science (?:project|fair|test|homework)|history (?:project|test|homework)|revision|exams?|spelling test|book report|times tables?)\b`,
    // Cooking
    String.raw`\b(?:recipes?|cook(?:ing)?|bake|baking|dinner ideas?|lunch ideas?|meal plan|lasagne|lasagna|pasta|cake|cookies)\b`,
    // The weather as a forecast, not as what to dress for
    String.raw`\b(?:weather (?:forecast|tomorrow|today|this weekend|like)|forecast|will it rain|is it going to rain|temperature (?:tomorrow|today|outside))\b`,
    // Entertainment
    String.raw`\b(?:jokes?|riddles?|poems?|bedtime story|short story|stories|movies?|films?|tv shows?|series to watch|songs?|lyrics|video games?|play a game)\b`,
    // Ordering anything but clothes
    String.raw`\b(?:pizza|takeaway|take-away|groceries|taxi|uber|flights?|train tickets|hotel room|cinema tickets)\b`,
    // Medical
    String.raw`\b(?:fever|medicine|medication|paracetamol|ibuprofen|doctor|symptoms?|rash|vaccines?|diagnos\w*|pregnan\w*|headache|cough|allergic reaction|dosage)\b`,
    // Legal and money
    String.raw`\b(?:landlord|lawyer|legal(?:ly)?|lawsuit|sue|divorce|custody|contract|tenancy|deposit back|taxes|tax return|mortgage|invest(?:ing|ment)?|stock market|crypto|bitcoin|loan)\b`,
    // Bills and cover ("any deals on car insurance", "discounts on my phone bill")
    String.raw`\b(?:insurance|broadband|(?:phone|mobile|energy|electricity|gas|water) (?:bills?|contracts?|tariffs?))\b`,
    // Coding and computers
    String.raw`\b(?:coding|programming|write (?:me )?(?:some |a |the )?(?:code|program)|my code|this code|python|javascript|java|sql|html|css|script|debug|bug in|compile|excel|spreadsheet|wifi|wi-fi|router|laptop|computer|printer|password|iphone|android|app crash\w*)\b`,
    // The service itself: how it works, who or what answers
    String.raw`\b(?:how (?:(?:does|do|did|will|would|can|could) )?(?:this|it|you|the app|the service|approvals?|payments?|budgets?|buying|ordering) work|what can you do|who are you|are you (?:a |an )?(?:bot|robot|human|real person|person|ai)|(?:speak|talk) to (?:a |an |the )?(?:human|real person|person|manager|customer service))\b`,
    // Services that are not shopping for clothes
    String.raw`\b(?:hairdressers?|hair ?cuts?|barbers?|hair salon|nail salon|manicure|pedicure|babysitters?|childminders?|plumbers?|electricians?|dentists?|restaurants?)\b`,
    // Trivia, the news, the time
    String.raw`\b(?:capital of|who won|who is the president|what time is it|time (?:is it )?in|translate|the news|the score|population of|how far is|meaning of life)\b`,
  ].join('|'),
);

/** Words that keep a message about clothes whatever else it mentions. */
export const CLOTHING_TALK =
  /\b(?:wear(?:ing)?|wore|outfits?|clothes|clothing|dressed|dress up|look(?:s)? (?:good|nice|smart)|style|styling|wardrobe|fits?|size|sizes|uniform|kit|costume|gifts?|presents?|shopping|looking for|find(?:ing)? (?:me |her |him |them |us )?(?:something|some|an?)|something (?:nice |smart |comfy |warm )?(?:to|for))\b/;

/** Refunds, returns labels and policies, where an order is, cancelling it (ORDER_ADMIN, AFTER_SALES). */
const ORDER_QUESTIONS = [
  String.raw`\b(?:returns? (?:policy|label|form|window|period|address)|refunds?|refunded|money back)\b`,
  String.raw`\b(?:where(?:'s| is| are)|track|tracking|status of|cancel|change) (?:my|our|the) (?:order|orders|parcel|package|delivery|purchase)\b`,
  String.raw`\b(?:order|parcel|package|delivery)(?: still)? (?:hasn'?t|has not|never|didn'?t|did not|not) (?:arrived|come|turned up|shown up|been delivered)\b`,
  String.raw`\b(?:has|have|did|was|were) (?:my|our|the) (?:order|orders|parcel|package|delivery) (?:shipped|been|arrived|gone|left|come|dispatched|sent)\b|\border (?:status|number|tracking|confirmation)\b`,
  String.raw`\bwhen (?:will|does|is) (?:my|our|the|it) (?:order |parcel |package |delivery )?(?:arrive|come|be delivered|get here)\b`,
];

/**
 * After the sale: returning or exchanging what was bought, refunds, where an order is ("can i
 * return the coat", "where is my order"). The stylist neither sees nor changes orders, so these
 * start no search and no purchase, whatever garment they name.
 */
export const AFTER_SALES = new RegExp(
  [
    String.raw`\b(?:can|could|may|do|how (?:do|can|could|would|should)|where (?:do|can)|want to|wanna|need to|like to|have to|is it (?:possible|ok|okay) to|able to|going to) (?:i |we |you |he |she |they )?(?:still )?(?:return|exchange|send back)\b`,
    String.raw`\b(?:return|send) (?:it|them|this|that|these|those|the \w+|my \w+|our \w+) (?:back|for a refund)\b`,
    ...ORDER_QUESTIONS,
  ].join('|'),
);

/**
 * After the sale, past sending a thing back: a refund, a returns label or policy, where an order
 * is, cancelling it. Nothing asked again beside them makes the message a search.
 */
export const ORDER_ADMIN = new RegExp(
  [
    String.raw`\b(?:return|send) (?:it|them|this|that|these|those|the \w+|my \w+|our \w+) for a refund\b`,
    ...ORDER_QUESTIONS,
  ].join('|'),
);

/**
 * Beside a return or an exchange, the same thing asked for again in another size or colour ("can
 * you find it in a 10 instead", "do you have it in a bigger size", "same trainers in a 5 please"):
 * that is a search, the return itself aside. A refund, a label or an order's whereabouts stays
 * after the sale ("can i get a refund on the size 10 dress").
 */
// "same trainers in a 5" starts its clause ("need to send them back, same trainers in a 5"): not
// "a refund on the same trainers in a 5", nor "same trainers in a 5 were sent back".
export const FOUND_AGAIN =
  /\b(?:(?:can|could) you (?:find|get|look for|search for|show me)|(?:do|have) you (?:have|got)|have you got|find me|show me|look for|search for) (?:it|them|this|that|these|those|one|the same|(?:the |a |an )?same (?:[a-z-]+ )?)?\s?(?:but )?(?:in (?:a |an |size )?(?:\d{1,2}(?:\.5)?|xs|s|m|l|xl|xxl|small|medium|large|bigger|smaller|larger|another)|instead)\b|(?:^ ?|[,.;:!?] |\b(?:and|but|so|then|just|or|please) )(?:the |a |an )?same (?:[a-z-]+ ){0,2}(?:but )?in (?:a |an |size )?(?:\d{1,2}(?:\.5)?|xs|s|m|l|xl|xxl|small|medium|large|bigger|smaller|larger)\b(?! (?:was|were|is|are|has|have|had|got|came|arrived|went|didn'?t|did not|doesn'?t)\b)/;

/**
 * Asking how to make someone lose weight or diet ("how do i make my daughter lose weight for her
 * dress", "diet pills"): no advice the stylist gives, and no shopping, whatever garment is named.
 * Having lost weight ("she's lost weight, needs smaller jeans") is shopping.
 */
export const WEIGHT_LOSS = new RegExp(
  [
    String.raw`\b(?:how (?:do|can|could|should|would) (?:i|we|she|he|they) (?:make \w+(?: \w+)? )?|help (?:me |her |him |them |my \w+ )?|make (?:me|her|him|them|my \w+|our \w+) |want(?:s)? to |need(?:s)? to |has to |have to |trying to |try to |going to |gonna |tips to |ways to |get (?:her|him|them|me|my \w+) to )(?:lose|drop|shed) (?:some |a bit of |a little |the |a few |\d+ ?(?:kg|kilos?|lbs?|pounds|stone) ?(?:of )?)?(?:weight|kg|kilos?|lbs?|pounds|stone|belly fat|baby weight)\b`,
    String.raw`\b(?:weight[- ]loss (?:tips|plan|pills|advice|diet|shakes?)|diet pills?|diet plan|crash diet|put (?:her|him|me|them|my \w+) on a diet|go on a diet|stop eating|skip(?:ping)? meals|starve)\b`,
  ].join('|'),
);

/**
 * "write me a poem about socks", "tell me a story about a dress", "help me write a birthday card for
 * my mum": a creative task, not shopping.
 */
export const CREATIVE_TASK =
  /\b(?:write|tell|sing|make up|compose) (?:me |us |my \w+ )?(?:a |an |some )?(?:funny |short |little )?(?:poem|story|song|joke|rap|limerick|haiku|essay|riddle)s?\b|\b(?:write|compose|draft|word) (?:me |us )?(?:a |an |the |some |my )?(?:nice |short |funny |little |sweet )?(?:(?:birthday|christmas|thank[- ]you|get[- ]well|wedding|anniversary|leaving|sympathy|valentine'?s?|mother'?s day|father'?s day) )?(?:card|message|letter|note|speech|toast|invitation|invite|email|text|caption|post)s?\b/;

/**
 * One someone outside the family: the neighbours, a friend, a classmate, the other family. ("What
 * do other families buy" asks what is usual, not for anyone's data.)
 */
const OUTSIDER =
  "(?:the )?(?:neighbou?rs?|(?:[a-z]+ )?next door|(?:an)?other (?:family|household)|someone else|somebody else|(?:my |his |her |their |our )?(?:friend|classmate|ex|colleague)s?|[a-z]+ from (?:my |his |her |their |our )?(?:[a-z]+'s )?(?:class|school|team|nursery|club|work))";
/** What is theirs to keep private. */
const THEIR_DETAILS = 'wardrobes?|closets?|accounts?|address|password|phone number|personal data';
/**
 * Asked to see another household's or another child's data ("show me what the neighbours have in
 * their wardrobe", "what size is Emily from my son's class", "what's my friend's address"): the
 * stylist sees only this household, and says so instead of searching. Others named in passing stay
 * shopping: "a gift to update my friend's wardrobe", "send it to my friend's address", "which size
 * would suit my friend", "my friend's wedding".
 */
export const OTHERS_DATA = new RegExp(
  [
    // "show me what the johnsons next door have in their wardrobe", "check what my friend has in hers".
    // "show me what my neighbour's kids have in their wardrobe": the outsider's children are outsiders too.
    String.raw`\b(?:show|see|look|check|tell)(?: me| us)? (?:what(?:'s| is)?|inside|into|in) (?:[a-z']+ ){0,3}?(?:${OUTSIDER})(?:'s|s'|')?(?: [a-z']+){0,4}? (?:their|his|her) (?:${THEIR_DETAILS}|orders?|purchases?)\b`,
    // "what's my friend's address", "open the neighbours' account".
    // "what's in my neighbour's son's wardrobe": one of theirs, named after them.
    String.raw`\b(?:show|see|look (?:at|in|into|through)|check|open|access|get into|read|give me|tell me|what(?:'s| is| are))(?: me| us)?(?: in)? (?:my |our )?(?:${OUTSIDER})(?:'s|s'|')(?: [a-z]+(?:'s|s'|'))? (?:${THEIR_DETAILS})\b`,
    // "what did the other family order", "what have the neighbours bought".
    String.raw`\bwhat (?:did|has|have) (?:${OUTSIDER}) (?:order|ordered|buy|bought|purchase|purchased)\b`,
    // Their size, asked about: "what size is emily from his class", "what size does my friend's son wear".
    String.raw`\b(?:what|which) (?:size|sizes|shoe size) (?:is|are|does|do|did) (?:${OUTSIDER})(?!'s (?:wedding|party|birthday))\b(?! (?:wedding|party|birthday))`,
  ].join('|'),
);

/**
 * Caring for clothes already owned: washing, ironing, stains, mending ("how do i get a stain out of
 * a white shirt", "can i tumble dry wool", "how to shrink jeans back"). Advice, not shopping, whatever
 * garment is named; "a coat that is easy to wash" asks for a coat.
 */
export const CLOTHES_CARE = new RegExp(
  [
    String.raw`\b(?:how (?:do|can|could|should|would) (?:i|we|you|one)|how to|best way to|tips (?:on|for) (?:how to )?|can (?:i|we|you)|should (?:i|we)|is it (?:ok|okay|safe) to) (?:remove|wash|hand wash|machine wash|clean|dry clean|iron|steam|dry|tumble dry|bleach|dye|unshrink|shrink|de-?pill|mend|darn|sew up|patch|repair|fix|stretch|soften|whiten|waterproof|polish|store|fold)\b(?! (?:me|him|her|them|us|some|a new|new|another)\b)(?!.*\b(?:buy|get (?:a|some|new)|find|recommend|looking for)\b)`,
    String.raw`\b(?:stains?|stained|bobbles|bobbling|pilling|shrunk|shrank|faded) (?:out of|off|on|from)\b.*\?|\b(?:get|remove|getting|removing) (?:(?:a|an|the|this|that|these|those|some|his|her|my) )?(?:[a-z]+ )?(?:stain|mark|grease|ink|wine|mud|blood|chewing gum|gum)s? (?:out|off)\b`,
    String.raw`\bwhat (?:temperature|setting|programme|program|cycle) (?:should|do|can) (?:i|we) (?:wash|dry|iron)\b`,
  ].join('|'),
);

/**
 * Dressing to pass for an adult where age is checked ("something to make me look 18 so i can get
 * into the club", "an outfit to look older to get served"), or a fake id: refused. Looking older
 * for a party or a prom ("a dress that makes her look older for prom") is no such thing.
 */
export const UNDERAGE_ENTRY = new RegExp(
  [
    String.raw`\b(?:look|looking|pass(?:ing)? (?:for|as)|seem|appear)(?: like)?(?: (?:i'?m|i am|he'?s|she'?s|we'?re))? (?:older|over ?(?:1[89]|2[01])|1[89]|2[01]|of age|legal|an adult)\b(?=.*\b(?:get (?:into|in|served)|(?:night ?)?clubs?|bars?|pubs?|casinos?|bouncers?|(?:buy|get) (?:drinks|alcohol|booze|beer|cigarettes|vapes?)|served|id)\b)`,
    String.raw`\bfake id\b|\b(?:get|sneak) (?:into|in) (?:a |the )?(?:(?:night ?)?club|bar|pub|casino)s? (?:underage|under ?age)\b`,
  ].join('|'),
);

/** Whose wardrobe: the family's own ("my", "our", "my daughter's"), never an outsider's (OTHERS_DATA). */
const OWN_WARDROBE = `(?:my|our|his|her|their|the|the family'?s?|my [a-z]+'s|our [a-z]+'s) (?:wardrobe|closet|clothes)`;
/**
 * A question about what the family already owns ("what's in my daughter's wardrobe", "show me our
 * wardrobe", "what coats does my son have"): the wardrobe is listed, no offers searched.
 */
export const WARDROBE_ASKED = new RegExp(
  [
    String.raw`\bwhat(?:'s| is| do (?:i|we|they|you)(?: already)? have| does (?:she|he)(?: already)? have)(?: already)? in ${OWN_WARDROBE}\b`,
    String.raw`\b(?:show|list|see|check|look (?:at|in|through)|go through|tell me about)(?: me| us)? (?:what'?s in |what is in )?${OWN_WARDROBE}\b`,
    String.raw`\bwhat (?:[a-z]+ ){0,2}(?:do|does) (?:i|we|she|he|they|my [a-z]+|our [a-z]+) (?:already |still )?(?:have|own|got)(?: already)?(?: in (?:the|my|our|his|her|their) (?:wardrobe|closet))? ?(?:\?|\.)? ?$`,
  ].join('|'),
);

/**
 * Dressing a child to look sexy ("a crop top for my 9 year old that makes her look sexy"): refused
 * whatever is named, when the look is for a child (read-message.ts: a child's age, or a child the
 * look is for or put on). An adult's "a sexy dress for date night" is shopping, and stays so when
 * children are only mentioned ("the kids are at grandma's", "mum of 3 kids", "no kids allowed").
 */
export const SEXUALISED = /\b(?:sexy|sexier|seductive|provocative|slutty|raunchy|sultry|va-?va-?voom)\b/;
const A_CHILD = String.raw`(?:kids?'?|child(?:ren)?(?:'s)?|toddlers?|little (?:girl|boy|one)s?|schoolgirls?|schoolboys?|pre-?teens?|tweens?|(?:1[0-7]|[1-9])[ -]?(?:years?|yrs?)[ -]?olds?|(?:1[0-7]|[1-9]) ?(?:yo|y\/o)|year \d{1,2}s?|grade \d{1,2}|primary school(?:ers?)?)(?![\w-])`;
/** "for my 9 year old", "for the kids disco", "make my little girl look": the child the look is for. */
export const A_CHILD_SAID = new RegExp(
  String.raw`\b(?:for|make|makes|making|dress|dressing|get|getting|on) (?:(?:my|our|the|a|an|his|her|their|your|this|these|those|two|2|3) )?(?:(?:little|young|younger|youngest|older|eldest|oldest|baby|twin|teenage) )?${A_CHILD}`,
);

/**
 * "approved of", "approved for school", "approved by the school": a taste or a uniform rule, no
 * request (nor is "why was my card declined", a payment).
 */
const NOT_A_RULE = String.raw`(?! (?:of\b|(?:by|for|as) (?:the |a |my |our |his |her |their )?(?:school|uniform|pe|work|office|nursery|club|team|dress code)\b))`;

/**
 * Asking where a purchase request stands ("has mum approved the coat", "why is my dad still not
 * approving the jacket", "can you check if the request was approved"): the stylist neither sees nor
 * decides approvals, so it says where they are instead of searching for the item named.
 */
export const APPROVAL_ASKED = new RegExp(
  [
    // Someone asked about ("has my mum approved"), not "has to be approved", "the school has approved".
    String.raw`\b(?:has|have|did|had) (?:my |our |the )?(?!(?:the |my |our )?(?:to|be|been|got|school|uniform|teachers?)\b)(?:[a-z]+ ){1,2}(?:already |yet |still |finally )?(?:approved?|okayed|ok'?d|said yes to|declined|rejected|denied|turned down)\b${NOT_A_RULE}`,
    String.raw`\b(?:why|when) (?:is|isn'?t|has|hasn'?t|will|won'?t|did|didn'?t|does|doesn'?t|was|wasn'?t|would|wouldn'?t|can'?t|haven'?t|have) (?!(?:[a-z']+ ){0,5}?(?:card|payment|transaction|bank)\b)(?:[a-z']+ ){0,5}(?:approv(?:e|ed|es|ing|al)|declined?|rejected?|denied|deny|denies)\b${NOT_A_RULE}`,
    String.raw`\b(?:check|see|know|tell me|find out) (?:if|whether) (?:[a-z']+ ){0,5}(?:approved|declined|rejected|denied)\b${NOT_A_RULE}`,
    String.raw`\b(?:is|was|has) (?!the (?:school|uniform|teachers?)\b|(?:my|the|our) (?:card|payment|transaction)\b)(?:it|that|this|the [a-z]+|my [a-z]+|our [a-z]+)(?: been)? (?:approved|declined|rejected|denied)(?: yet)?\b${NOT_A_RULE}`,
    String.raw`\b(?:waiting|wait|still waiting) (?:for|on) (?:(?:the |an? |my |his |her )?approval|[a-z]+ to approve)\b|\b(?:pending|awaiting) (?:approval|confirmation)\b|\bstatus of (?:my|the|our|his|her) (?:purchase )?(?:request|approval)\b`,
  ].join('|'),
);

/** A determiner, and a word saying which one it is ("the new pram", "her old bike", "his electric scooter"). */
const WHOSE =
  '(?:the|my|his|her|our|their|your) (?:new|old|own|first|favou?rite|big|little|double|twin|electric|kick|balance) ';
/**
 * What stands before a thing not asked for: said no to or liked ("no toys", "loves lego"), where
 * clothes are worn ("for the pram", "4 the buggy", "for her new bike"), or what they are worn doing
 * or matched with ("for riding her scooter", "while pushing the pram", "to match his bike").
 */
const WORN_WITH = [
  String.raw`(?<!\b(?:no|not|nor|without|but|except|likes?|loves?|into|about|with|of|like|fan of)(?: (?:the|a|an|his|her|my|our|their))? )`,
  String.raw`(?<!\b(?:for|4|in|on|into|under|over|at|to|2|from) (?:the |a |an |my |his |her |our |their )?)`,
  String.raw`(?<!\b(?:for|4|in|on|into|under|over|at|to|2|from|with) ${WHOSE})`,
  String.raw`(?<!\b(?:rid(?:e|es|ing)|rode|push(?:es|ing)?|match(?:es|ing)?|go(?:es)? with|us(?:e|es|ed|ing)|fits?|fitting) (?:(?:the|a|an|my|his|her|our|their|your) )?(?:(?:new|old|own|big|little|double|twin|electric|kick|balance) )?)`,
].join('');
/**
 * Worn things a family asks a stylist for that the reader has no item word for: jewellery, a watch,
 * an umbrella, hair things, a bib or an apron, a cape. Named after a thing not bought ("a lego
 * necklace", "a toy story umbrella") or with it ("earrings and a perfume"), they keep the message shopping.
 */
const WEARABLES =
  "necklaces?|bracelets?|bangles?|earrings?|pendants?|lockets?|charms?|brooch(?:es)?|jewell?e?ry|(?:(?:a|an|the|new|kids?'?|child(?:ren)?'?s?|girls?'?|boys?'?|digital|analogue|gold|silver|wrist|his|her|my) )watch|watches(?! (?:tv|telly|films?|movies?|youtube|cartoons|the)\\b)|umbrellas?|brollys?|brollies|hair ?(?:clips?|bows?|bands?|slides?|ties?)|bows|headbands?|scrunchies|scrunchy|tiaras?|bibs?|aprons?|tabards?|smocks?|capes?|bandanas?|wallets?|bum ?bags?|fanny packs?";
export const WEARABLE_SAID = new RegExp(String.raw`\b(?:${WEARABLES})\b`);
/**
 * Things only ever bought for themselves, never worn. A swim nappy is worn to swim, and a nappy
 * cover over the nappy (see OTHER_GOODS).
 */
const GOODS =
  'lawn ?mowers?|(?:power )?drills?|wallpaper|lamps?|desks?|(?:dining |coffee |kitchen )?tables?|(?:office |gaming )?chairs?|laptops?|computers?|tyres?|toys?|teddy bears?|teddies|lego|dolls?|board games?|jigsaws?|puzzles?|(?<!\\bswim(?:ming)?[ -])(?:nappies|nappy|diapers?)|baby wipes|wipes|prams?|pushchairs?|buggies|strollers?|car seats?|high ?chairs?|cots?|cribs?|mattress(?:es)?|pillows?|duvets?|bedding|bed sheets|sofas?|couch(?:es)?|furniture|curtains|vacuum(?: cleaners?)?|hoovers?|washing machines?|dishwashers?|fridges?|freezers?|kettles?|toasters?|microwaves?|phone cases?|smartphones?|ipads?|headphones|earbuds|games consoles?|playstation|xbox|bikes?|bicycles?|scooters?|trampolines?|textbooks?|stationery|pencil cases?|lunch ?box(?:es)?|water bottles?|perfumes?|aftershave|shampoo|toothpaste|dog food|cat food|pet food|birthday cakes?|cakes?';
/** Things that are also where clothes are worn ("something comfy for the flight"): only when asked for. */
const ASKED_GOODS =
  'flights?|plane tickets|train tickets|cinema tickets|concert tickets|hotels?(?: rooms?)?|taxis?|pizzas?|takeaways?|groceries|phones?|mobile phones?|tvs?|televisions?|tablets?';
/**
 * What follows a thing when it only names a worn one: a theme or print ("lego themed", "toy story"),
 * clothing named after it ("a nappy cover", "bike gear", "cycle wear", "a lego necklace"), or an
 * occasion ("a cake smash").
 */
const NAMES_WORN = String.raw`(?![ -](?:themed|print(?:ed)?|pattern(?:ed)?|motif|character|design|story|covers?|wraps?|swim|gear|wear|smash|watch(?:es)?|${WEARABLES})\b)`;

/**
 * Things bought that are not clothes ("toys for a 3 year old", "order some nappies size 4", "find
 * me a cheap flight to spain", "a new mattress for my son's bed", "a phone case for my daughter"):
 * outside clothing whatever size, price or age is said with them, so declined unless a garment is
 * named or clothes are spoken of (read-message.ts). A thing said no to ("no toys"), liked ("he loves
 * lego", "toy story pyjamas") or where the clothes are worn ("something warm for the pram",
 * "something comfy for the flight", "a waterproof for riding her scooter") is no such request.
 */
// "looking for a sofa", "shopping for a new lamp": the "for" of a shopping verb is no place worn.
export const OTHER_GOODS = new RegExp(
  String.raw`${WORN_WITH}\b(?:${GOODS})\b${NAMES_WORN}|\b(?:looking|searching|shopping|hunting|look|search|shop) for (?:(?:a|an|some|the|cheap|new|good|best|nice|decent) ){0,3}(?:${GOODS})\b${NAMES_WORN}|\b(?:find|book|order|buy|get|need|needs|want|wants|recommend|suggest|looking for|search for)(?: me| us| him| her| them)? (?:(?:a|an|some|the|cheap|new|good|best|nice|decent) ){0,3}(?:${ASKED_GOODS})\b`,
);

/**
 * Clothes spoken of as such: a request for something to wear, whatever else it names ("swimwear",
 * "cycling gear", "sumthing 4 the buggy", typed in a hurry).
 */
export const CLOTHES_SAID =
  /\b(?:wear(?:ing)?|wore|outfits?|clothes|clothing|dressed|dress up|wardrobe|uniform|kit|costume|style|styling|lingerie|garms|get-?ups?|attire|apparel|togs|(?:night|sleep|lounge|swim|beach|active|sports?|party|baby|kids|rain|cycle|bike|outer|knit|evening)wear|(?:rain|swim|ski|snow|cycling|riding|sports?|gym|running|wet weather|waterproof) gear)\b|\b(?:something|anything|sth|smth|somethin|sumthing|summat|summit) (?:[a-z]+ )?(?:to|for|4|2)\b/;
