"""Common English words and Chinese characters, shown to the tokenizer only.

The models are trained on the toy language, but students type real sentences. Training the BPE
on these lists too means everyday English words and common Chinese characters become whole
tokens (not byte pieces), and the decoder's random-span copying task covers them.
"""

COMMON_EN = """
a about above across act add after again against age ago air all almost alone along already also
although always am among an and animal another answer any anyone anything are area arm around art as
ask at attention away back bad bank be beautiful because become bed been before begin behind being
believe best better between big black blue body book both bring brother brown build but buy by call
can car care carry case cause center change child city class clear close cold color come common
computer could country course cut dark data day dead deep did different do does door down draw dream
drink drive during each early earth east easy eat either end enough even evening ever every everyone
example eye face fact fall family far fast father feel few field find fine fire first fish five fly
follow food foot for form found four fox free friend from front full game gave get girl give go good
got great green ground group grow had half hand happen hard has have he head hear heart help her
here high him his hold home hope horse hot hour house how however human hundred idea if important in
information inside into is it its job just keep key kind know land language large last late later
learn leave left less let letter life light like line list listen little live long look lot love low
machine made make man many matter may me mean meet men might mind minute model money month more
morning most mother move much music must my name near need never new next night no not nothing now
number of off often old on once one only open or order other our out over own page paper part pass
people person picture place plan play point power problem put question quick quickly rain read ready
real reason red remember rest right river road room run said same saw say school sea second see seem
sentence set she short should show side simple since sing sit six size sky sleep slow small so some
something song soon sound south space speak stand start state still stop story street strong student
study such sun sure system table take talk teach teacher tell ten test than that the their them then
there these they thing think this those though thought three through time to today together told too
took top toward town tree true try turn two under understand until up us use very voice wait walk
want war warm was watch water way we week well went were west what when where which while white who
whole why will wind window with without woman word work world would write year yes yet you young
your transformer attention query key value token tokens layer layers head heads model models encoder
decoder softmax vector matrix embedding position positional learning neural network language machine
translation sentence word words predict prediction masked mask next generate generation
""".split()  # noqa: SIM905 (a word list is easier to read as prose)

# Frequent simplified Chinese characters (roughly the most common few hundred in modern text).
COMMON_ZH = (
    "的一是不了人我在有他这中大来上个国到说们为子和你地出道也时年得就那要下以生会自着去之过家学对可她里后"
    "小么心多天而能好都然没日于起还发成事只作当想看文无开手十用主行方又如前所本见经头面公同三已老从动两长"
    "知民样现分将外但身些与高意进把法此实回二理美点月明其种声全工己话儿者向情部正名定女问力机给等几很业最"
    "间新什打便位因重被走电四第门相次东政海口使教西再平真听世气信北少关并内加化由却代军产入先山五太水万市"
    "眼体别处总才场师书比住员九笑性通目华报立马命张活难神数件安表原车白应路期叫死常提感金何更反合放做系计"
    "或司利受光王果亲界及今京务制解各任至清物台象记边共风战干接它许八特觉望直服毛林题建南度统色字请交爱让"
    "认算论百吃义科怎元社术结六功指思非流每青管夫连远资队跟带花快条院变联言权往展该领传近留红治决周保达办"
    "运武半候七必城父强步完革深区即求品士转量空甚众技轻程告江语英基派满式李息写呢识极令黄德收脸钱党倒未持"
    "取设始版双历越史商千片容研像找友孩站广改议形委早房音火际则首单据导影失拿网香似专石若兵弟谁校读志飞观"
    "争究包组造落视济喜离虽坏兴切热随游团讲病器习注意力模型编码解码词句预测翻译朋哥姐妹爸妈吗吧啊呀哪谢再"
    "见晚饭菜鸡蛋牛羊猪狗猫鸟鱼虫树草云雨雪冷春夏秋冬早午今昨明天星期周末快乐生日祝福欢迎请问对不起没关系"
)
